import ArgumentParser
import CKCore
import Foundation

enum TestOutputFormat: String, CaseIterable {
    case text, tap, junit, json

    /// ckrun's names, and busted's output handlers: `TAP`, `json`, `junit`, and the terminal
    /// ones (`utfTerminal`, `plainTerminal`, `gtest`, `sound`), which are ckrun's text report.
    init?(name: String) {
        switch name {
        case "text", "utfTerminal", "plainTerminal", "gtest", "sound": self = .text
        case "tap", "TAP": self = .tap
        case "junit": self = .junit
        case "json": self = .json
        default: return nil
        }
    }
}

/// `ckrun test [PATH...]`: runs test files written in busted's spec language (docs/testing.md).
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run test files written in busted's spec language.",
        discussion: """
        Each file runs in a fresh Lua state. Output ends with the line `N passed, N failed` \
        (`, N skipped` if any). Exit status: 0 when nothing failed (also when no test ran), 1 \
        when a test failed or errored, 64 on a usage error. busted's options are taken too. \
        See docs/testing.md.
        """)

    @Argument(help: ArgumentHelp(
        "Test files, or directories searched for *_test.lua, *_spec.lua and test_*.lua (default: .).",
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
        "The report on standard output: text, tap, junit or json (busted's names too: TAP, utfTerminal, plainTerminal, gtest).",
        valueName: "format"))
    var output: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Flag(inversion: .prefixedNo, help: "Run files, and tests within each describe block, in random order (prints the seed).")
    var shuffle: Bool?

    @Option(help: ArgumentHelp("Shuffle with this seed, reproducing an earlier --shuffle (implies --shuffle).", valueName: "n"))
    var seed: UInt64?

    @Option(name: [.customShort("p"), .long], help: ArgumentHelp(
        "Run test files whose names match this Lua pattern, as busted does (repeatable; busted's default: _spec).", valueName: "pattern"))
    var pattern: [String] = []

    @Option(name: .customLong("exclude-pattern"), help: ArgumentHelp("Skip test files whose names match this Lua pattern.", valueName: "pattern"))
    var excludePattern: [String] = []

    @Option(name: [.customShort("m"), .long], help: ArgumentHelp(
        "Prefix package.path with this (default: the templates ./src/?.lua, ./src/?/?.lua and ./src/?/init.lua).", valueName: "path"))
    var lpath: String?

    @Option(help: ArgumentHelp("Prefix package.cpath with this (default: ./csrc/?.so;./csrc/?/?.so).", valueName: "path"))
    var cpath: String?

    @Option(help: ArgumentHelp("A Lua file run before each test file.", valueName: "file"))
    var helper: String?

    @Option(name: [.customShort("r"), .customLong("run")], help: ArgumentHelp("The task of the .busted file to use (default: default).", valueName: "task"))
    var task: String?

    @Flag(inversion: .prefixedNo, help: "Run files and tests sorted by name.")
    var sort: Bool?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Run the tests this many times.", valueName: "n"))
    var repeatCount: Int = 1

    @Flag(name: .customLong("fail-fast"), help: "Stop after the first failed or errored test (busted: --no-keep-going).")
    var failFast = false

    @Option(help: ArgumentHelp("Run this many files at once, each in its own process.", valueName: "n"))
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

    @Option(help: ArgumentHelp("Stop each test body or hook after this long with [timeout].", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "No os.execute, io.popen, package.loadlib, C modules or file writes in the tests.")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp(
        "Stop a test file's Lua state when it allocates more than this with [memoryLimit].", valueName: "MB"))
    var memoryLimit: Int?

    @OptionGroup(title: "busted's options") var busted: BustedOptions

    // The hidden worker mode behind --jobs: run one file, print its results for the parent.
    @Flag(help: .hidden) var worker = false

    // ckrun's own specs of the runner's internals (Tests/lua/loads_spec.lua): the runner's table
    // as a global. Hidden: a suite never needs it, and without it no test reaches the runner.
    @Flag(name: .customLong("runner-internals"), help: .hidden) var runnerInternals = false

    func validate() throws {
        if !(timeout > 0) { throw ValidationError("--timeout takes a positive number of seconds") }
        if jobs < 1 { throw ValidationError("--jobs takes a positive number of processes") }
        if repeatCount < 1 { throw ValidationError("--repeat takes a positive number of runs") }
        try Self.checkRuns(repeatCount, files: 1)
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit takes a positive number of megabytes") }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes I/N with 1 <= I <= N, for example --shard 1/3 (got '\(shard)')")
        }
        for (flag, patterns) in [("--filter", filters), ("--exclude", excludes)] {
            for pattern in patterns {
                if let problem = LuaPattern.problem(in: pattern) {
                    throw ValidationError("\(flag) '\(pattern)' is not a valid Lua pattern: \(problem)")
                }
            }
        }
        for (flag, list) in [("--tags", tags), ("--exclude-tags", excludeTags)] where Self.tagList(list).isEmpty && !list.isEmpty {
            throw ValidationError("\(flag) takes tag names, for example \(flag) slow,network")
        }
        // With -C the paths are relative to that directory: run() checks them there.
        if busted.directories.isEmpty { try Self.checkExist(paths) }
        if worker, !paths.isEmpty { throw ValidationError("--worker takes its files on standard input") }
        if let junit, junit.isEmpty { throw ValidationError("--junit takes a file name") }
    }

    func run() throws {
        var command = self
        if !worker {
            // -f names a file from where ckrun was started, as busted reads it before -C.
            let configFile = busted.configFile.map { URL(fileURLWithPath: $0).path }
            try Self.changeDirectory(busted.directories)
            let limits = BustedConfig.Limits(sandbox: sandbox, timeout: timeout, memoryLimitMB: memoryLimit)
            try command.apply(BustedConfig.load(task: task, path: configFile, limits: limits))
            try Self.checkExist(command.paths)
        }
        try command.execute()
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

    /// A path that does not exist is a usage error.
    static func checkExist(_ paths: [String]) throws {
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
    }

    /// busted's `-C DIR`: each relative to the one before, before `.busted` is read.
    static func changeDirectory(_ directories: [String]) throws {
        for directory in directories where !FileManager.default.changeCurrentDirectoryPath(directory) {
            throw ValidationError("-C/--directory: cannot change to \(directory)")
        }
    }

    private func makeSettings() -> TestRunSettings {
        var settings = TestRunSettings(
            filters: filters, excludes: excludes, tags: Self.tagList(tags), excludeTags: Self.tagList(excludeTags),
            timeout: timeout, shard: shard.flatMap(Shard.init(parsing:)), seed: nil,
            failFast: failFast || busted.keepGoing == false, sandbox: sandbox, memoryLimitMB: memoryLimit)
        settings.sort = busted.sortTests ?? sort ?? false
        settings.lpath = lpath ?? "./src/?.lua;./src/?/?.lua;./src/?/init.lua"
        settings.cpath = cpath ?? "./csrc/?.so;./csrc/?/?.so"
        settings.helper = helper
        settings.helperArguments = busted.helperArguments
        settings.statements = busted.statements
        settings.lang = busted.lang
        settings.lazy = busted.lazy ?? false
        settings.updateSnapshots = updateSnapshots
        settings.coverage = coverage ?? false
        settings.recordLoads = watch
        settings.exposeRunner = runnerInternals
        settings.elementNames = output.flatMap(TestOutputFormat.init(name:)) == .json
        // busted: --shuffle is --shuffle-files and --shuffle-tests; ckrun's --seed alone shuffles both.
        settings.shuffleFiles = busted.shuffleFiles ?? shuffle ?? (seed != nil)
        settings.shuffleTests = busted.shuffleTests ?? shuffle ?? (seed != nil)
        if settings.shuffleFiles || settings.shuffleTests { settings.seed = seed ?? UInt64.random(in: 1...UInt64(UInt32.max)) }
        return settings
    }

    private func execute() throws {
        var settings = makeSettings()
        if worker {
            WorkerLoop.serve(settings: settings)
            return
        }
        var junitPath = junit
        try Self.applyBazel(&settings, junit: &junitPath)
        let files = shardFiles(try discover(), settings: &settings)
        try Self.checkRuns(repeatCount, files: files.count)
        let run = TestRun(files: files, settings: settings, jobs: jobs, repeats: repeatCount)
        if watch { try watchTests(run, junit: junitPath) }
        if list {
            try listTests(run)
        } else if runTests(run, junit: junitPath).failed {
            throw ExitCode(1)
        }
    }

    /// `--watch`: the first pass runs `run`, later ones the files the watcher picks.
    private func watchTests(_ run: TestRun, junit: String?) throws -> Never {
        let (roots, patterns) = discoveryRoots()
        let recursive = busted.recursive ?? true
        var outputs = run.settings.coverage ? ["luacov.stats.out", "lcov.info"] : []
        if let junit { outputs.append(junit) }
        let discover = { [excludePattern] () -> [String] in
            let present = roots.filter { FileManager.default.fileExists(atPath: $0) }
            return (try? TestDiscovery.files(in: present, patterns: patterns, excluding: excludePattern, recursive: recursive)) ?? []
        }
        let watcher = try TestWatcher(roots: roots, recursive: recursive, outputs: outputs, discover: discover)
        watcher.loop { pass in
            guard let files = pass.files else { return runTests(run, junit: junit).results }
            var settings = run.settings
            if let filters = pass.filters { settings.filters = filters }
            settings.updateSnapshots = settings.updateSnapshots || pass.updateSnapshots
            // Each file keeps its place among all the test files: --shard and the shuffle key on it.
            let places = Dictionary(watcher.discovered.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
            return runTests(TestRun(files: files, settings: settings, jobs: jobs, places: places), junit: junit).results
        }
    }

    /// Bazel's test protocol: TEST_TOTAL_SHARDS / TEST_SHARD_INDEX (0-based) pick the shard
    /// when --shard is not given, TEST_SHARD_STATUS_FILE is touched to say sharding is
    /// understood, XML_OUTPUT_FILE receives the JUnit report when --junit is not given.
    static func applyBazel(_ settings: inout TestRunSettings, junit: inout String?) throws {
        let environment = ProcessInfo.processInfo.environment
        if settings.shard == nil, let shard = try bazelShard(environment) { settings.shard = shard }
        if let status = environment["TEST_SHARD_STATUS_FILE"], !status.isEmpty {
            try? ReplacingFile.write([], to: status)
        }
        if junit == nil, let xml = environment["XML_OUTPUT_FILE"], !xml.isEmpty { junit = xml }
    }

    /// The shard Bazel's variables name, nil when neither is set. An index outside the shards
    /// is a usage error, as a bad --shard is: running every test instead would hide the mistake.
    static func bazelShard(_ environment: [String: String]) throws -> Shard? {
        let total = environment["TEST_TOTAL_SHARDS"].flatMap { $0.isEmpty ? nil : $0 }
        let index = environment["TEST_SHARD_INDEX"].flatMap { $0.isEmpty ? nil : $0 }
        if total == nil && index == nil { return nil }
        guard let count = total.flatMap({ Int($0) }), let zeroBased = index.flatMap({ Int($0) }),
              count >= 1, zeroBased >= 0, zeroBased < count else {
            throw ValidationError(
                "TEST_SHARD_INDEX must be a number from 0 to TEST_TOTAL_SHARDS - 1, and TEST_TOTAL_SHARDS a positive number "
                    + "(Bazel's sharding; got TEST_SHARD_INDEX=\(index ?? "(unset)"), TEST_TOTAL_SHARDS=\(total ?? "(unset)"))")
        }
        return Shard(index: zeroBased + 1, count: count)
    }

    /// `--shard-timings`: the shard's share of whole files (`ShardTimings`), every test of which
    /// then runs. Without a shard there is nothing to balance, which a note says.
    private func shardFiles(_ files: [String], settings: inout TestRunSettings) -> [String] {
        guard let shardTimings else { return files }
        guard let shard = settings.shard else {
            StandardStreams.err("ckrun test: note: --shard-timings does nothing without --shard I/N (or Bazel's TEST_TOTAL_SHARDS): every test runs\n")
            return files
        }
        let report = ShardTimings.read(shardTimings)
        if let note = report.note { StandardStreams.err("ckrun test: note: \(note)\n") }
        settings.shard = nil
        let share = ShardTimings.files(files, shard: shard, times: report.seconds)
        if share.isEmpty, !files.isEmpty, !passWithNoTests {
            StandardStreams.err("ckrun test: note: shard \(shard.index)/\(shard.count) got none of the \(files.count) test files (--shard-timings gives shards whole files): nothing to run\n")
        }
        return share
    }

    /// The report: `--output` or `.busted`'s, by ckrun's or busted's name; an output handler ckrun
    /// does not know (a module of the project's) is the text report, as busted falls back to its default.
    var format: TestOutputFormat { output.flatMap(TestOutputFormat.init(name:)) ?? .text }

    /// Runs and reports; `failed` when a test failed or a report could not be written.
    private func runTests(_ run: TestRun, junit: String?) -> (results: [FileResult], failed: Bool) {
        if let output, TestOutputFormat(name: output) == nil {
            StandardStreams.err("ckrun test: no output handler '\(output)' here (text, tap, junit, json, or busted's TAP, utfTerminal, plainTerminal, gtest): the text report follows\n")
        }
        if format != .text { StandardStreams.reserveForReport() }
        let reporter: TestReporter = switch format {
        case .text: TextReporter(verbose: busted.verbose ?? false, suppressPending: busted.suppressPending ?? false)
        case .tap: TAPReporter()
        case .junit: JUnitReporter()
        case .json: BustedJSONReporter()
        }
        let fileWriter = junit.map(JUnitFileWriter.init(path:))
        let reporters: [TestReporter] = [reporter] + (fileWriter.map { [$0] } ?? [])
        let start = DispatchTime.now()
        reporters.forEach { $0.start(seed: run.settings.seed) }
        let results = run.execute { result in reporters.forEach { $0.report(result) } }
        let summary = TestSummary(results)
        let elapsed = seconds(since: start)
        reporters.forEach { $0.finish(results, summary: summary, seconds: elapsed) }
        // Machine formats own standard output entirely: the summary goes to standard error.
        if format == .text { StandardStreams.out(summary.line + "\n") } else { StandardStreams.err(summary.line + "\n") }

        var failed = summary.failed > 0
        if run.settings.coverage {
            do {
                let files = try CoverageReport.write(CoverageReport.merge(results))
                StandardStreams.err(CoverageReport.summaryTable(files))
                StandardStreams.err("ckrun test: coverage written to luacov.stats.out and lcov.info\n")
            } catch {
                StandardStreams.err("ckrun test: cannot write the coverage reports: \(error.description)\n")
                failed = true
            }
        }
        if let problem = fileWriter?.failure {
            StandardStreams.err("ckrun test: \(problem)\n")
            failed = true
        }
        // Nothing ran, so nothing failed: exit 0, as busted does (SPEC §9), with a word on why.
        if summary.total == 0 && !passWithNoTests, let note = noTestsMessage(run) {
            StandardStreams.err("ckrun test: \(note)\n")
        }
        return (results, failed)
    }

    private func listTests(_ run: TestRun) throws {
        var count = 0
        var loadFailed = false
        for file in run.order {
            let result = SpecFileRunner(file: file.path, fileIndex: file.index, settings: run.settings, listOnly: true).run()
            for test in result.tests {
                if test.status == .errored {
                    StandardStreams.err("ckrun test: \(test.message ?? file.path)\n")
                    loadFailed = true
                } else {
                    StandardStreams.out(LineBreaks.escaped("\(file.path):\(test.line): \(test.name)") + "\n")
                    count += 1
                }
            }
        }
        if count == 0 && !passWithNoTests && !loadFailed, let note = noTestsMessage(run) {
            StandardStreams.err("ckrun test: \(note)\n")
        }
        if loadFailed { throw ExitCode(1) }
    }

    /// Test files: the paths given, else the .busted ROOT, else `spec/` with busted's rules when
    /// it exists, else the working directory.
    private func discover() throws -> [String] {
        let (roots, patterns) = discoveryRoots()
        return try TestDiscovery.files(in: roots, patterns: patterns, excluding: excludePattern, recursive: busted.recursive ?? true)
    }

    /// The paths searched and busted's --pattern list for them.
    private func discoveryRoots() -> (roots: [String], patterns: [String]) {
        guard paths.isEmpty else { return (paths, pattern) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "spec", isDirectory: &isDirectory), isDirectory.boolValue {
            return (["spec"], pattern.isEmpty ? ["_spec"] : pattern)
        }
        return (["."], pattern)
    }

    /// Why nothing ran; nil when --shard-timings left this shard no file (it said so then).
    private func noTestsMessage(_ run: TestRun) -> String? {
        if run.files.isEmpty && shardTimings != nil && run.settings.shard == nil { return nil }
        let where_ = (paths.isEmpty ? ["."] : paths).joined(separator: " ")
        let detail = run.files.isEmpty
            ? "no test files in \(where_) (test files are named *_test.lua, *_spec.lua or test_*.lua)"
            : "no tests matched in \(run.files.count == 1 ? "1 file" : "\(run.files.count) files") (check --filter, --exclude, --tags, --exclude-tags and --shard)"
        return "note: " + detail + "; nothing failed, so the run succeeds (--pass-with-no-tests leaves this note out)"
    }

    /// `--tags a,b --tags c` → ["a", "b", "c"]; a leading `#` is optional.
    static func tagList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
            .filter { !$0.isEmpty }
    }
}
