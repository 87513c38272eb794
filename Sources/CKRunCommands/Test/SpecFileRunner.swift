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

/// One test file, in a fresh Lua state or in the state the process shares between files
/// (`SpecStates`): configure the runner, load the file and run it.
struct SpecFileRunner {
    let file: String
    /// The file's place in the sorted list of discovered files (sharding uses it).
    let fileIndex: Int
    let settings: TestRunSettings
    var listOnly = false
    /// Where the file's state comes from: a fresh one unless files share one (auto-insulate = false).
    var states: SpecStates? = nil

    func run() -> FileResult {
        var result = FileResult(file: file)
        run { result = $0 }
        return result
    }

    /// The file's result, handed to `deliver` before the file's state closes (see `runRecords`).
    func run(_ deliver: (FileResult) -> Void) {
        runRecords { head, records in
            var result = head
            do { result.tests = try ResultRecords.tests(records[...], file: file) } catch {
                result.tests = [failure("\(error)", traceback: "", "left results ckrun could not read")]
            }
            deliver(result)
        }
    }

    /// The file's result with its tests as `ResultRecords` (what a `--jobs` worker sends on),
    /// handed to `deliver` before the file's state closes: a finalizer that holds the close past
    /// its time limit ends the process, and the results are out by then.
    func runRecords(_ deliver: (_ head: FileResult, _ records: [UInt8]) -> Void) {
        let start = MonotonicInstant.now()
        var head = FileResult(file: file)
        var records: [UInt8] = []
        var session: SpecSession?
        do {
            session = try (states ?? SpecStates(settings: settings, shared: false)).session(listOnly: listOnly)
            let problem = ReadableFile.problem(file, sandboxed: settings.sandbox, what: "the test file")
            guard let session, problem == nil else {
                records = ResultRecords.records([failure(problem ?? "cannot read the file", traceback: "", "failed to load")])
                return deliver(head, records)
            }
            defer { records = session.records }
            // Read by a run's ending, or a --jobs worker's parent asking by signal, while the file
            // runs; never once its state may close, nor before a shared state's earlier file's are gone.
            session.engine.testing.clearTestRecords()
            RunEnding.runningRecords(session.wholeRecordsReader)
            session.engine.testing.share()
            defer { TestSupport.stopSharing(); RunEnding.runningRecords(nil) }
            try session.run(path: file, index: fileIndex, seed: seed)
        } catch {
            // A shared state whose runner stopped is not used again.
            if let session { states?.discard(session) }
            // What the file's tests recorded before the runner stopped stays; the reason follows.
            if settings.shard?.includes(fileIndex: fileIndex, nameHash: 0) ?? true {
                let detail = records.isEmpty ? "failed to load" : "stopped running its tests"
                let message = session.map { Self.located(error.message, in: $0) } ?? error.message
                var result = failure(message, traceback: Traceback.clean(error.traceback), detail)
                // A file that does not compile is reported as busted reports it: Lua's message alone.
                if session?.fileDidNotCompile == true { result.message = error.message }
                records += ResultRecords.records([result])
            }
        }
        if let session { collect(from: session, into: &head) }
        head.exitStatus = TestSupport.takeExitStatus()
        head.seconds = seconds(since: start)
        withExtendedLifetime(session) { deliver(head, records) }
    }

    /// An `os.exit` a finalizer called as the file's state closed, after its result was handed
    /// on (`TestSupport.takeClosingExit`): a failure of the file, as one in a test is a failure
    /// of the test (atk-new 17: the run passed). Nil when none was called.
    /// The exit's status comes with it: the run's, when no earlier `os.exit` was called.
    func closingExit() -> (failure: TestResult, status: Int32?)? {
        guard let message = TestSupport.takeClosingExit() else { return nil }
        let failure = TestResult(name: file, file: file, line: Self.line(in: String(message.drop { $0 != " " }.dropFirst()), of: file),
                                 status: .errored, message: message + " (by a finalizer (__gc) as the file's state closed, after its tests)",
                                 traceback: "", descriptor: "file")
        return (failure, TestSupport.takeExitStatus())
    }

    /// The file's `math.random` seed: its own, from the run's (`--seed`, or one drawn per run).
    var seed: Int64 {
        var random = SeededRandom(seed: settings.seed ?? settings.stateSeed, path: file)
        return Int64(bitPattern: random.next() >> 1)
    }

    /// What the file printed outside its tests, and under --watch and --coverage what it loaded and ran.
    private func collect(from session: SpecSession, into head: inout FileResult) {
        head.output = (try? session.call("take_file_output")) ?? ""
        if settings.recordLoads, let files = try? session.call("loaded_files") {
            head.loadedFiles = files.split(separator: "\0").map(String.init)
        }
        if settings.coverage, let json = try? session.call("coverage_json") {
            head.coverage = try? JSONDecoder().decode([String: [String: Int]].self, from: Data(json.utf8))
        }
    }

    /// A file that did not load or whose run stopped: named by the file, as busted names a file
    /// that does not compile, at the line the error names in it.
    private func failure(_ detail: String, traceback: String, _ what: String) -> TestResult {
        TestResult(name: file, file: file, line: Self.line(in: detail, of: file), status: .errored,
                   message: Catalogue.testFailure.message("\(file) \(what): \(detail)"), traceback: traceback,
                   descriptor: "file")
    }

    /// An error Lua located in the runner's own code (`(ckrun test: run):102: stack overflow`,
    /// raised as the runner went deeper into blocks nested past the stack's limit) located at
    /// the block or test the runner was running instead: a place in the spec file.
    static func located(_ message: String, in session: SpecSession) -> String {
        // `(ckrun test: NAME):LINE: ` (a chunk's name, then Lua's position).
        guard message.hasPrefix("(ckrun test"), let close = message.firstIndex(of: ")") else { return message }
        let rest = message[message.index(after: close)...]
        guard rest.first == ":" else { return message }
        let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(1 + digits.count).hasPrefix(": "),
              let place = try? session.call("running_place") else { return message }
        return place + String(rest.dropFirst(1 + digits.count))
    }

    /// The line of `file` an error message starts at (`file:12: ...`), or 0.
    static func line(in message: String, of file: String) -> Int {
        guard message.hasPrefix(file + ":") else { return 0 }
        return Int(message.dropFirst(file.count + 1).prefix { $0.isNumber }) ?? 0
    }
}

func seconds(since start: MonotonicInstant) -> Double {
    Double(MonotonicInstant.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
