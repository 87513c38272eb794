import Foundation

/// `--output json`: busted's JSON report (its `-o json`): one object with the lists
/// `successes`, `failures`, `errors` and `pendings`, each entry naming a test by its full
/// name with its message and where it is, and the run's `duration`.
final class BustedJSONReporter: TestReporter {
    func start(seed: UInt64?) {
        if let seed { StandardStreams.err("ckrun test: shuffled with seed \(seed) (run again with --seed \(seed))\n") }
    }

    func report(_ file: FileResult) {}

    func finish(_ files: [FileResult], summary: TestSummary, seconds: Double) {
        var lists: [String: [[String: Any]]] = ["successes": [], "failures": [], "errors": [], "pendings": []]
        for test in files.flatMap(\.tests) {
            let key = switch test.status {
            case .passed: "successes"
            case .failed: "failures"
            case .errored: "errors"
            case .skipped: "pendings"
            }
            var entry: [String: Any] = [
                "name": test.name,
                "message": test.message ?? "",
                "trace": ["short_src": test.file, "currentline": test.line, "traceback": test.traceback ?? ""],
                "element": ["name": test.name, "descriptor": "it", "duration": test.seconds,
                            "trace": ["short_src": test.file, "currentline": test.line]],
            ]
            if test.status == .errored { entry["isError"] = true }
            lists[key, default: []].append(entry)
        }
        var document: [String: Any] = lists
        document["duration"] = seconds
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        StandardStreams.out(String(decoding: data, as: UTF8.self) + "\n")
    }
}
