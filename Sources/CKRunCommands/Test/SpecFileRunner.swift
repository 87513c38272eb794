import CKCore
import CKLua
import Foundation

/// One test file, in a fresh Lua state: load it, plan its tests, run them with their hooks.
struct SpecFileRunner {
    let file: String
    /// The file's place in the sorted list of discovered files (sharding uses it).
    let fileIndex: Int
    let settings: TestRunSettings

    enum Listing {
        case tests([PlannedTest])
        case loadFailure(TestResult)
    }

    func run() -> FileResult {
        let start = DispatchTime.now()
        var result = FileResult(file: file)
        switch prepare() {
        case .failure(let failure):
            result.output = failure.output
            if settings.shard?.includes(fileIndex: fileIndex, position: 0) ?? true { result.tests = [failure.result] }
        case .success(let (session, plan)):
            result.tests = HookedTestRunner(session: session, file: file, settings: settings).run(plan)
            result.output = (try? session.call("file_output")) ?? ""
        }
        result.seconds = seconds(since: start)
        return result
    }

    func list() -> Listing {
        switch prepare() {
        case .failure(let failure): .loadFailure(failure.result)
        case .success(let (_, plan)): .tests(plan)
        }
    }

    struct LoadFailure: Error {
        var result: TestResult
        var output: String
    }

    /// A file that cannot be read, parsed or run to the end counts as one errored test named after it.
    private func prepare() -> Result<(SpecSession, [PlannedTest]), LoadFailure> {
        var session: SpecSession?
        do {
            session = try SpecSession(settings: settings)
            guard let session, let data = FileManager.default.contents(atPath: file) else {
                return .failure(failure("cannot read the file", traceback: "", output: ""))
            }
            try configure(session)
            try session.load(code: String(decoding: data, as: UTF8.self), path: file, timeout: settings.timeout)
            let tree = try JSONDecoder().decode(SpecNode.self, from: Data((try session.call("tree") ?? "").utf8))
            let random = settings.seed.map { SeededRandom(seed: $0, path: file) }
            return .success((session, TestPlanner.plan(tree, fileIndex: fileIndex, shard: settings.shard, random: random)))
        } catch let error as LuaError {
            let output = (try? session?.call("file_output")) ?? ""
            return .failure(failure(error.message, traceback: Traceback.clean(error.traceback), output: output))
        } catch {
            return .failure(failure("could not read its tests: \(error)", traceback: "", output: ""))
        }
    }

    private func configure(_ session: SpecSession) throws(LuaError) {
        for pattern in settings.filters { try session.call("add_filter", "filters", pattern) }
        for pattern in settings.excludes { try session.call("add_filter", "excludes", pattern) }
        for tag in settings.tags { try session.call("add_filter", "tags", tag) }
        for tag in settings.excludeTags { try session.call("add_filter", "exclude_tags", tag) }
        if let seed = settings.seed {
            // Seeds math.random too, so a shuffled run's random data is reproducible with --seed.
            var random = SeededRandom(seed: seed, path: file)
            try session.call("seed", String(Int64(bitPattern: random.next() >> 1)))
        }
    }

    private func failure(_ detail: String, traceback: String, output: String) -> LoadFailure {
        LoadFailure(
            result: TestResult(name: file, file: file, line: 0, status: .errored,
                               message: Catalogue.testFailure.message("\(file) failed to load: \(detail)"),
                               traceback: traceback),
            output: output)
    }
}

func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
