import CKCore
import CKLua
import Foundation

/// One test file, in a fresh Lua state: configure the runner, load the file and run it.
struct SpecFileRunner {
    let file: String
    /// The file's place in the sorted list of discovered files (sharding uses it).
    let fileIndex: Int
    let settings: TestRunSettings
    var listOnly = false

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
        let start = DispatchTime.now()
        var head = FileResult(file: file)
        var records: [UInt8] = []
        var session: SpecSession?
        do {
            session = try SpecSession(settings: settings)
            guard let session, FileManager.default.isReadableFile(atPath: file) else {
                records = ResultRecords.records([failure("cannot read the file", traceback: "", "failed to load")])
                return deliver(head, records)
            }
            try configure(session)
            defer { records = session.records }
            try session.run(path: file)
        } catch {
            // What the file's tests recorded before the runner stopped stays; the reason follows.
            if settings.shard?.includes(fileIndex: fileIndex, nameHash: 0) ?? true {
                let detail = records.isEmpty ? "failed to load" : "stopped running its tests"
                records += ResultRecords.records([failure(error.message, traceback: Traceback.clean(error.traceback), detail)])
            }
        }
        if let session { collect(from: session, into: &head) }
        head.seconds = seconds(since: start)
        withExtendedLifetime(session) { deliver(head, records) }
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

    private func configure(_ session: SpecSession) throws(LuaError) {
        for pattern in settings.filters { try session.call("set", "filters", pattern) }
        for pattern in settings.excludes { try session.call("set", "filter_out", pattern) }
        for tag in settings.tags { try session.call("set", "tags", tag) }
        for tag in settings.excludeTags { try session.call("set", "exclude_tags", tag) }
        try session.call("set", "timeout", String(settings.timeout))
        if settings.failFast { try session.call("set", "fail_fast", "true") }
        if listOnly { try session.call("set", "list", "true") }
        if settings.sort { try session.call("set", "sort", "true") }
        if settings.updateSnapshots { try session.call("set", "update_snapshots", "true") }
        if settings.coverage { try session.call("set", "coverage", "true") }
        if let shard = settings.shard {
            try session.call("set", "shard_index", String(shard.index))
            try session.call("set", "shard_count", String(shard.count))
            try session.call("set", "file_index", String(fileIndex))
        }
        for (key, value) in [("lpath", settings.lpath), ("cpath", settings.cpath), ("helper", settings.helper)] {
            if let value { try session.call("set", key, value) }
        }
        if let seed = settings.seed {
            // Seeds math.random too, so a shuffled run's random data is reproducible with --seed.
            var random = SeededRandom(seed: seed, path: file)
            let derived = String(Int64(bitPattern: random.next() >> 1))
            if settings.shuffleTests { try session.call("set", "randomize", "true") }
            try session.call("set", "seed", derived)
            try session.call("seed_random", derived)
        }
        if settings.lazy { try session.call("set", "lazy", "true") }
        if settings.recordLoads { try session.call("set", "record_loads", "true") }
        if settings.elementNames { try session.call("set", "element_names", "true") }
        for option in settings.helperArguments { try session.call("set", "helper_arguments", option) }
        if let lang = settings.lang { try session.setLanguage(lang) }
        for statement in settings.statements { try session.call("set", "statements", statement) }
    }

    private func failure(_ detail: String, traceback: String, _ what: String) -> TestResult {
        TestResult(name: file, file: file, line: 0, status: .errored,
                   message: Catalogue.testFailure.message("\(file) \(what): \(detail)"), traceback: traceback)
    }
}

func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
