import ArgumentParser
import CKCore
import Foundation

enum TestOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, tap, junit
}

/// `ckrun test [PATH...]`: runs test files written in busted's spec language (docs/testing.md).
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run test files written in busted's spec language.",
        discussion: """
        Each file runs in a fresh Lua state. Output ends with the line `N passed, N failed` \
        (`, N skipped` if any). Exit status: 0 when nothing failed, 1 when a test failed or \
        errored (or none matched), 64 on a usage error. See docs/testing.md.
        """)

    @Argument(help: ArgumentHelp(
        "Test files, or directories searched for *_test.lua, *_spec.lua and test_*.lua (default: .).",
        valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("filter"), help: ArgumentHelp(
        "Run only tests whose full name matches this Lua pattern (repeatable: any may match).", valueName: "pattern"))
    var filters: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "Skip tests whose full name matches this Lua pattern (repeatable; wins over --filter).", valueName: "pattern"))
    var excludes: [String] = []

    @Option(help: ArgumentHelp("Run only tests with any of these #tags (comma-separated, repeatable).", valueName: "tags"))
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), help: ArgumentHelp(
        "Skip tests with any of these #tags (comma-separated, repeatable; wins over --tags).", valueName: "tags"))
    var excludeTags: [String] = []

    @Flag(help: "Print `file:line: full name` for each selected test instead of running it.")
    var list = false

    @Option(help: ArgumentHelp("The report on standard output: text, tap or junit.", valueName: "format"))
    var output: TestOutputFormat = .text

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Flag(help: "Run files, and tests within each describe block, in random order (prints the seed).")
    var shuffle = false

    @Option(help: ArgumentHelp("Shuffle with this seed, reproducing an earlier --shuffle (implies --shuffle).", valueName: "n"))
    var seed: UInt64?

    @Flag(name: .customLong("fail-fast"), help: "Stop after the first failed or errored test.")
    var failFast = false

    @Option(help: ArgumentHelp("Run this many files at once, each in its own process.", valueName: "n"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp(
        "Run the I-th of N shards; shards split the tests and together run each exactly once.", valueName: "I/N"))
    var shard: String?

    @Flag(name: .customLong("pass-with-no-tests"), help: "Succeed when no test matched (otherwise an error).")
    var passWithNoTests = false

    @Option(help: ArgumentHelp("Stop each test body or hook after this long with [timeout].", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(help: "No os.execute, io.popen, package.loadlib, C modules or file writes in the tests.")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp(
        "Stop a test file's Lua state when it allocates more than this with [memoryLimit].", valueName: "MB"))
    var memoryLimit: Int?

    // The hidden worker mode behind --jobs: run one file, print its results for the parent.
    @Flag(help: .hidden) var worker = false
    @Option(name: .customLong("worker-file-index"), help: .hidden) var workerFileIndex = 0

    func validate() throws {
        if !(timeout > 0) { throw ValidationError("--timeout takes a positive number of seconds") }
        if jobs < 1 { throw ValidationError("--jobs takes a positive number of processes") }
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
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("no such file or directory: \(path)")
        }
        if worker, paths.count != 1 { throw ValidationError("--worker runs exactly one file") }
        if let junit, junit.isEmpty { throw ValidationError("--junit takes a file name") }
    }

    func run() throws {
        var settings = TestRunSettings(
            filters: filters, excludes: excludes, tags: Self.tagList(tags), excludeTags: Self.tagList(excludeTags),
            timeout: timeout, shard: shard.flatMap(Shard.init(parsing:)), seed: nil, failFast: failFast,
            sandbox: sandbox, memoryLimitMB: memoryLimit)
        if shuffle || seed != nil { settings.seed = seed ?? UInt64.random(in: 1...UInt64(UInt32.max)) }

        if worker {
            let result = SpecFileRunner(file: paths[0], fileIndex: workerFileIndex, settings: settings).run()
            StandardStreams.out(WorkerProtocol.encode(result))
            return
        }
        let files = try TestDiscovery.files(in: paths.isEmpty ? ["."] : paths)
        let run = TestRun(files: files, settings: settings, jobs: jobs)
        if list {
            try listTests(run)
        } else {
            try runTests(run)
        }
    }

    private func runTests(_ run: TestRun) throws {
        let reporter: TestReporter = switch output {
        case .text: TextReporter()
        case .tap: TAPReporter()
        case .junit: JUnitReporter()
        }
        let fileWriter = junit.map(JUnitFileWriter.init(path:))
        let reporters: [TestReporter] = [reporter] + (fileWriter.map { [$0] } ?? [])
        let start = DispatchTime.now()
        reporters.forEach { $0.start(seed: run.settings.seed) }
        let results = run.execute { result in reporters.forEach { $0.report(result) } }
        let summary = TestSummary(results)
        let elapsed = seconds(since: start)
        reporters.forEach { $0.finish(results, summary: summary, seconds: elapsed) }
        StandardStreams.out(summary.line + "\n")

        var failed = summary.failed > 0
        if let problem = fileWriter?.failure {
            StandardStreams.err("ckrun test: \(problem)\n")
            failed = true
        }
        if summary.total == 0 && !passWithNoTests {
            StandardStreams.err("ckrun test: \(noTestsMessage(run))\n")
            failed = true
        }
        if failed { throw ExitCode(1) }
    }

    private func listTests(_ run: TestRun) throws {
        var count = 0
        var loadFailed = false
        for file in run.order {
            switch SpecFileRunner(file: file.path, fileIndex: file.index, settings: run.settings).list() {
            case .tests(let plan):
                StandardStreams.out(plan.map { "\(file.path):\($0.line): \($0.fullName)\n" }.joined())
                count += plan.count
            case .loadFailure(let failure):
                StandardStreams.err("ckrun test: \(failure.message ?? file.path)\n")
                loadFailed = true
            }
        }
        if count == 0 && !passWithNoTests && !loadFailed {
            StandardStreams.err("ckrun test: \(noTestsMessage(run))\n")
            throw ExitCode(1)
        }
        if loadFailed { throw ExitCode(1) }
    }

    private func noTestsMessage(_ run: TestRun) -> String {
        let where_ = (paths.isEmpty ? ["."] : paths).joined(separator: " ")
        let detail = run.files.isEmpty
            ? "no test files in \(where_) (test files are named *_test.lua, *_spec.lua or test_*.lua)"
            : "no tests matched in \(run.files.count == 1 ? "1 file" : "\(run.files.count) files") (check --filter, --exclude, --tags, --exclude-tags and --shard)"
        return Catalogue.testFailure.message(detail + "; pass --pass-with-no-tests to allow an empty run")
    }

    /// `--tags a,b --tags c` → ["a", "b", "c"]; a leading `#` is optional.
    static func tagList(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
            .filter { !$0.isEmpty }
    }
}
