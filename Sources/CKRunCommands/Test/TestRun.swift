import CKCore
import CKLua

/// Runs the files, in this process or in `--jobs` workers, handing each file's result on in
/// the run's order: sorted by path, or shuffled by the seed.
struct TestRun {
    let files: [String]
    let settings: TestRunSettings
    let jobs: Int
    var repeats = 1
    /// A file's index among all the run's test files, when `files` is a part of them (--watch).
    var places: [String: Int]? = nil
    /// Errors of the run itself, before any file (busted's "No test files found matching Lua
    /// pattern"): each is reported as an error outside the tests, first.
    var loadErrors: [String] = []

    /// `loadErrors` as a result: busted publishes them as errors of no element.
    var loadErrorResult: FileResult? {
        guard !loadErrors.isEmpty else { return nil }
        return FileResult(file: "", tests: loadErrors.map {
            TestResult(name: "", file: "", line: 0, status: .errored, message: $0, traceback: "", descriptor: "error")
        })
    }

    /// Each file with its index in sorted order (sharding and shuffling key on it).
    var order: [ParallelRunner.File] {
        var order = files.enumerated().map { (path: $0.element, index: places?[$0.element] ?? $0.offset) }
        // busted's execute.lua: sorted (by name) if asked, else shuffled if asked.
        if settings.sortFiles {
            order.sort { TestDiscovery.bytewise($0.path, $1.path) }
        } else if settings.shuffleFiles, let seed = settings.seed {
            LuaRandom.bustedShuffle(&order, seed: Int64(bitPattern: seed))
        }
        return Array(repeatElement(order, count: max(repeats, 0)).joined())
    }

    /// The first file that does not compile, checked in a state of its own (only under --fail-fast).
    static func firstUncompilable(_ files: [ParallelRunner.File], sandboxed: Bool) -> ParallelRunner.File? {
        let engine = Engine(configuration: .init())
        defer { engine.close() }
        var checked = Set<String>()
        for file in files where checked.insert(file.path).inserted && ReadableFile.problem(file.path, sandboxed: sandboxed, what: "the test file") == nil {
            do { _ = try engine.tools.loadFile(file.path) } catch { return file }
        }
        return nil
    }

    /// A file whose state's set-up raised (LUA_INIT, `.busted`'s code, a `-e` statement, the
    /// helper: each state runs them before its first file) as busted reports it: one error of the
    /// run, before any test (its runner.lua: "failed running the specified helper (FILE), error:
    /// …", then exit 1), not an error of each file. Nil for any other result.
    func setUpFailure(_ result: FileResult) -> FileResult? {
        guard let failed = result.tests.first(where: { $0.descriptor == "helper" }) else { return nil }
        var detail = failed.message ?? "", id: String?
        // An error with an id of its own ([testFailure] of os.exit, [timeout]) keeps it, in front.
        if detail.hasPrefix("["), let close = detail.firstIndex(of: "]"), detail[close...].hasPrefix("] "),
           detail[detail.index(after: detail.startIndex)..<close].allSatisfy({ $0.isASCII && $0.isLetter }) {
            id = String(detail[...close]) + " "
            detail = String(detail[detail.index(close, offsetBy: 2)...])
        }
        let message = failed.name == settings.helper && settings.helper != nil
            ? "failed running the specified helper (\(failed.name)), error: \(detail)" : detail
        return FileResult(file: "", tests: [TestResult(name: "", file: "", line: 0, status: .errored,
                                                       message: id.map { $0 + message } ?? Catalogue.testFailure.message(message),
                                                       traceback: "", descriptor: "error")], exitStatus: result.exitStatus)
    }

    /// Stops after the first file with a failure under `--fail-fast`.
    func execute(_ consume: (FileResult) -> Void) -> [FileResult] {
        var results: [FileResult] = []
        func take(_ result: FileResult) -> Bool {
            // busted sets up once, before any test: a set-up that raised stops it there, one error.
            let stop = setUpFailure(result)
            results.append(stop ?? result)
            consume(stop ?? result)
            return stop == nil && !(settings.failFast && result.didFail)
        }
        var order = order
        // busted compiles every file before it runs any test: under --no-keep-going (--fail-fast)
        // a file that does not compile stops the run before the first test, reported alone.
        if settings.failFast, let broken = Self.firstUncompilable(order, sandboxed: settings.sandbox) { order = [broken] }
        // Files that share a state (auto-insulate = false) run in one process, as busted runs them
        // all in one: a file may use what an earlier one set, so --jobs N gives --jobs 1's results.
        let parallel = jobs > 1 && order.count > 1 && !settings.sharedState
        let workers = parallel ? DescriptorBudget.workers(min(jobs, order.count)) : 1
        if workers > 1 {
            ParallelRunner(jobs: workers, settings: settings).run(order, consume: take)
        } else {
            let states = SpecStates(settings: settings), process = ProcessSnapshot()
            RunEnding.watchCurrent()
            defer { Self.running(nil) }
            for file in order {
                Self.running(file.path)
                // Taken (and reported) before the file's state closes: see SpecFileRunner.runRecords.
                // The process is put back before the report (a test closed fd 1) and after the close.
                var goOn = true
                let runner = SpecFileRunner(file: file.path, fileIndex: file.index, settings: settings, states: states)
                runner.run { ForcedExit.forgetTest(); process.restore(); goOn = take($0) }
                process.restore()
                // The state closed (unless files share it): an os.exit its finalizers called fails the file.
                if let exited = runner.closingExit() {
                    goOn = take(FileResult(file: file.path, tests: [exited.failure], followsItsFile: true, exitStatus: exited.status)) && goOn
                }
                if !goOn { break }
            }
        }
        return results
    }

    /// The file a serial run runs now (nil: none), for an early end (`RunEnding`) and a crash.
    private static func running(_ file: String?) {
        RunEnding.running(file)
        guard let file else { return ForcedExit.noteRunning("") }
        ForcedExit.noteRunning(" while ckrun test ran the test file \(BytePath.shown(file))", crashAdvice)
    }

    /// What a fault during a serial run says after the test file (and the test): how to keep
    /// the other files' results (docs/testing.md).
    static let crashAdvice =
        ": the whole run ends here, without its summary and reports "
            + "(Lua runs a precompiled chunk unverified: a corrupted one, or a C module's fault, can crash the process). "
            + "Run with --jobs 2 or more: each file then runs in a process of its own, a crashing file is a [testFailure] "
            + "and the other files' results and reports are kept\n"
}
