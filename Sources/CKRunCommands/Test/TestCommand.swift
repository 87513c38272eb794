import ArgumentParser
import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun test [PATH...]`: runs test files written in busted's spec language (docs/testing.md).
struct TestCommand: ParsableCommand {
    // The super-command's name: `parsedAsTest` parses a test command line with this command as
    // the root, and a root with none first tries the line as two commands of ArgumentParser's own
    // (`--generate-completion-script`, 5M of the 14M instructions the parse took before `--jobs`
    // forks). Help, usage and that flag go through the whole tree, whose root is `ckrun`.
    static let configuration = CommandConfiguration(
        commandName: "test",
        _superCommandName: "ckrun",
        abstract: "Run test files written in busted's spec language.",
        discussion: """
        Each file runs in a fresh Lua state. Output ends with the line `N passed, N failed` \
        (`, N skipped` if any). Exit status: 0 when nothing failed (also when the files hold no \
        selected test), 1 when a test failed or errored or no test file was found (as busted), 64 \
        on a usage error; a nonzero os.exit status when a test or the helper called it (as busted). \
        busted's options are taken too. See docs/testing.md.
        """)

    @Argument(help: ArgumentHelp(
        "Test files, or directories searched for files matching --pattern (default: spec/ if it exists, else .).",
        valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("filter"), help: ArgumentHelp(
        "Run only tests whose full name matches this Lua pattern (repeatable: any may match).", valueName: "pattern"))
    var filters: [String] = []

    @Option(name: [.customLong("filter-out"), .customLong("exclude")], help: ArgumentHelp(
        "Skip tests whose full name matches this Lua pattern (repeatable; wins over --filter).", valueName: "pattern"))
    var excludes: [String] = []

    @Option(name: [.customShort("t"), .long], help: ArgumentHelp("Run only tests with any of these #tags (comma-separated, repeatable).", valueName: "tags"))
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), help: ArgumentHelp(
        "Skip tests with any of these #tags (comma-separated, repeatable; wins over --tags).", valueName: "tags"))
    var excludeTags: [String] = []

    @Flag(name: [.customShort("l"), .long], help: "Print `file:line: full name` for each selected test instead of running it.")
    var list = false

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp(
        "The report on standard output: \(ReportFormat.nameList).",
        valueName: "format"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Flag(inversion: .prefixedNo, help: "Run files, and tests within each describe block, in random order (prints the seed).")
    var shuffle: Bool?

    // The next word whatever it is, as busted takes `--seed -5`.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The seed of --shuffle and of randomize() blocks, as busted's: reproduces an earlier shuffled run (shuffles nothing by itself).",
        valueName: "n"))
    var seed: String?

    @Option(name: [.customShort("p"), .long], help: ArgumentHelp(
        "Run test files whose names match this Lua pattern, as busted does (repeatable; default: _spec, and names ending _test.lua).", valueName: "pattern"))
    var pattern: [String] = []

    @Option(name: .customLong("exclude-pattern"), help: ArgumentHelp("Skip test files whose names match this Lua pattern.", valueName: "pattern"))
    var excludePattern: [String] = []

    @Option(name: [.customShort("m"), .customLong("lpath")], help: ArgumentHelp(
        "Prefix package.path with this (default: the templates ./src/?.lua, ./src/?/?.lua and ./src/?/init.lua); given again, added after.", valueName: "path"))
    var lpaths: [String] = []

    @Option(name: .customLong("cpath"), help: ArgumentHelp("Prefix package.cpath with this (default: ./csrc/?.so;./csrc/?/?.so); given again, added after.", valueName: "path"))
    var cpaths: [String] = []

    /// Each --lpath (and --cpath) given, joined with `;` in order, as busted's cli.lua appends them.
    var lpath: String? {
        get { lpaths.isEmpty ? nil : lpaths.joined(separator: ";") }
        set { lpaths = newValue.map { [$0] } ?? [] }
    }
    var cpath: String? {
        get { cpaths.isEmpty ? nil : cpaths.joined(separator: ";") }
        set { cpaths = newValue.map { [$0] } ?? [] }
    }

    @Option(help: ArgumentHelp("A Lua file run before each test file.", valueName: "file"))
    var helper: String?

    @Option(name: [.customShort("r"), .customLong("run")], help: ArgumentHelp("The task of the .busted file to use (default: default).", valueName: "task"))
    var task: String?

    @Flag(inversion: .prefixedNo, help: "Run files and tests sorted by name.")
    var sort: Bool?

    @Option(name: .customLong("repeat"), parsing: .unconditional, help: ArgumentHelp("Run the tests this many times.", valueName: "n"))
    var repeatCount: Int = 1

    @Flag(name: .customLong("fail-fast"), help: "Stop after the first failed or errored test (busted: --no-keep-going).")
    var failFast = false

    @Option(help: ArgumentHelp("Run this many files at once, in as many worker processes (each file in a fresh state, all in one working directory: files that write the same scratch path can collide).", valueName: "n"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp(
        "Run the I-th of N shards; shards split the tests and together run each exactly once.", valueName: "I/N"))
    var shard: String?

    @Option(name: .customLong("shard-timings"), help: ArgumentHelp(
        "With --shard: give shards whole files, balanced by the durations in this JUnit report of an earlier run (by count until it exists).",
        valueName: "file"))
    var shardTimings: String?

    @Flag(name: .customLong("update-snapshots"), help: "Rewrite the snapshots assert.tree_snapshot compares with.")
    var updateSnapshots = false

    @Flag(name: [.customShort("c"), .long], inversion: .prefixedNo, help: "Count the lines the tests run: luacov.stats.out and lcov.info.")
    var coverage: Bool?

    @Flag(help: "After the run, wait for changes (inotify) and re-run the test files they affect: changed, new, or loading a changed file.")
    var watch = false

    @Flag(name: .customLong("pass-with-no-tests"), help: "Say nothing when no test matched (the run succeeds either way).")
    var passWithNoTests = false

    @Option(help: ArgumentHelp(
        "Stop each test body or hook after this long with [timeout] (default: no limit; 10 under --sandbox).", valueName: "seconds"))
    var timeout: Double?

    /// The limit under `--sandbox` when none is given: a sandboxed run is one that does not trust its tests.
    static let sandboxTimeout = 10.0

    @Flag(help: "No os.execute, io.popen, package.loadlib, C modules or file writes in the tests.")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp(
        "Stop a test file's Lua state when it allocates more than this with [memoryLimit].", valueName: "MB"))
    var memoryLimit: Int?

    @OptionGroup(title: "busted's options") var busted: BustedOptions

    // The hidden worker mode behind --jobs: run one file, print its results for the parent.
    @Flag(help: .hidden) var worker = false
    // A worker's base for each file's math.random seed: the parent's (TestRunSettings.stateSeed).
    @Option(name: .customLong("state-seed"), help: .hidden) var stateSeed: UInt64?
    // The `.busted` file the run read (its path to read and its chunk name): each file's state
    // runs it again first (TestRunSettings.config), as busted ran it in the one state its specs
    // share. Set by `run`, and given to workers.
    @Option(name: .customLong("replay-config"), help: .hidden) var replayedConfig: String?
    @Option(name: .customLong("replay-config-name"), help: .hidden) var replayedConfigName: String?
    // busted's `arg` (TestRunSettings.commandLine): the runner's command line, which a worker's is not.
    @Option(name: .customLong("runner-arg"), help: .hidden) var runnerArguments: [String] = []

    // ckrun's own specs of the runner's internals (Tests/lua/loads_spec.lua): the runner's table
    // as a global. Hidden: a suite never needs it, and without it no test reaches the runner.
    @Flag(name: .customLong("runner-internals"), help: .hidden) var runnerInternals = false

    func validate() throws {
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout takes a number of seconds greater than 0 (got \(timeout))") }
        if jobs < 1 { throw ValidationError("--jobs takes a positive number of processes") }
        try Self.checkRuns(repeatCount, files: 1)
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit takes a whole number of megabytes, 1 or more (got \(memoryLimit))") }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes I/N with 1 <= I <= N, for example --shard 1/3 (got '\(shard)')")
        }
        // A malformed --filter or --filter-out pattern is not refused here: as in busted, the
        // run goes ahead and each block that registers a test it is matched against errors
        // with string.find's "malformed pattern" (exit 1), as a malformed --tags pattern does.
        if worker, !paths.isEmpty { throw ValidationError("--worker takes its files on standard input") }
        if let junit, junit.isEmpty { throw ValidationError("--junit takes a file name") }
        if let junit, let refusal = OutputTargets.refusal([.init(option: "--junit", path: junit)]) { throw ValidationError(refusal) }
        if let seed, Self.luaNumber(seed) == nil { throw ValidationError("argument to --seed must be a number (got '\(seed)')") }
    }

    /// busted reads `--seed` with `tonumber`: a Lua number (`12`, `-3`, `0x1F`, `1.5`, `1e3`).
    static func luaNumber(_ text: String) -> Double? {
        let trimmed = text.trimmingBlanks()
        if let integer = luaInteger(trimmed) { return Double(integer) }
        return Double(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The seed `math.randomseed` takes (an integer, or a float with an integer value); nil for
    /// `1.5`, which busted takes and Lua's `math.randomseed` refuses.
    static func luaInteger(_ text: String) -> Int64? {
        let text = text.trimmingBlanks()
        if let integer = Int64(text) { return integer }
        if let bits = UInt64(text) { return Int64(bitPattern: bits) }   // a seed ckrun printed
        let negative = text.hasPrefix("-")
        let digits = negative || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        if digits.lowercased().hasPrefix("0x"), let value = UInt64(digits.dropFirst(2), radix: 16) {
            let integer = Int64(bitPattern: value)
            return negative ? 0 &- integer : integer
        }
        guard let value = Double(text), value.rounded() == value, abs(value) < 9.2e18 else { return nil }
        return Int64(value)
    }

    func run() throws {
        var command = self
        if !worker {
            command.runnerArguments = BustedConfig.commandLine
            // -f names a file from where ckrun was started, as busted reads it before -C.
            let configFile = busted.configFile.map(BytePath.absolute)
            try Self.changeDirectory(busted.directories)
            let limits = BustedConfig.Limits(sandbox: sandbox, timeout: timeout ?? (sandbox ? Self.sandboxTimeout : nil),
                                             memoryLimitMB: memoryLimit)
            let config = try BustedConfig.load(task: task, path: configFile, limits: limits)
            let configPath = configFile ?? ".busted"
            if BytePath.exists(configPath) {
                command.replayedConfig = BytePath.absolute(configPath)
                command.replayedConfigName = configPath
            }
            // busted chdirs to `directory` (its -C) after reading .busted; -C on the command line wins.
            if busted.directories.isEmpty, let directory = config["directory"]?.first { try Self.changeDirectory([directory]) }
            try command.apply(config)
            try command.refuseTagsBothIncludedAndExcluded()
        }
        try command.execute()
    }

    /// busted's cli.lua refuses a tag given to both --tags and --exclude-tags (either from
    /// `.busted`) before anything runs, with this message: `-t unit --exclude-tags unit` ran
    /// nothing and passed. A usage error, so exit 64 (busted's is 1).
    func refuseTagsBothIncludedAndExcluded() throws {
        let included = Set(Self.tagList(tags))
        guard let tag = Self.tagList(excludeTags).first(where: included.contains) else { return }
        throw ValidationError("Cannot use --tags and --exclude-tags for the same tags ('\(tag)' is in both, on the command line or in .busted); give each tag to one of them")
    }

    /// The most file runs one `ckrun test` makes (files × `--repeat`): each keeps its result for
    /// the report, so `--repeat 4000000000` would take all the memory there is before running.
    static let maximumRuns = 100_000

    /// `--repeat` (or `.busted`'s `repeat`) past `maximumRuns` file runs is a usage error.
    static func checkRuns(_ repeats: Int, files: Int) throws {
        let (runs, overflow) = repeats.multipliedReportingOverflow(by: max(files, 1))
        guard overflow || runs > maximumRuns else { return }
        let what = files > 1 ? " with \(files) test files" : ""
        throw ValidationError("--repeat \(repeats)\(what) is more than \(maximumRuns) file runs; repeat fewer times")
    }

    /// busted's `-C DIR`: each relative to the one before, before `.busted` is read; an empty
    /// one stays where it is, as busted's path.join of "" does.
    static func changeDirectory(_ directories: [String]) throws {
        for directory in directories where !directory.isEmpty && !BytePath.changeDirectory(directory) {
            let reason = SystemError.text(errno)
            throw ValidationError("-C/--directory: cannot change to '\(BytePath.shown(directory))': \(reason)")
        }
    }

    private func execute() throws {
        MallocHeap.keepFreedMemory()   // a state a file: each takes the memory the last one freed
        let plan = try TestPlan(self)
        if worker { return WorkerLoop.serve(settings: plan.settings) }
        let run = try plan.run()
        let report = TestReport(plan: plan)
        if watch { try report.watch(run) }
        if list { return try TestListing(plan: plan).list(run) }
        let outcome = report.run(run)
        // The process ends next, and the results' memory with it, not through their releases
        // (10,000 tests: ~3M instructions after the last file, when nothing else runs).
        Self.reported = outcome.results
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }

    /// The last run's results, kept to the process's end (see `execute`).
    nonisolated(unsafe) private static var reported: [FileResult] = []

    /// `--tags a,b --tags c` → ["a", "b", "c"], split at commas as busted splits them (twice,
    /// so empty fields go) and kept as typed: busted looks for `"#" .. tag` in the name, so
    /// `-t '#unit'` or `-t ' unit'` selects no test there, and here.
    static func tagList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map(String.init) }
    }
}
