import Foundation

/// `--output json`: busted's JSON report (its `-o json`): one object with the lists
/// `successes`, `failures`, `errors` and `pendings`, each entry naming a test by its full
/// name, its element by its own name and descriptor, with its message and where it is, and the
/// run's `duration`.
final class BustedJSONReporter: TestReporter {
    func start(seed: UInt64?) {
        if let seed { StandardStreams.err("ckrun test: shuffled with seed \(seed) (run again with --seed \(seed))\n") }
    }

    func report(_ file: FileResult) {}

    /// Every string of the document with the bytes that are not UTF-8 as `\xE9` (`ByteText`).
    private static func showingBytes(_ value: Any) -> Any {
        switch value {
        case let text as String: ByteText.shown(text)
        case let list as [Any]: list.map(showingBytes)
        case let object as [String: Any]: object.mapValues(showingBytes)
        default: value
        }
    }

    func finish(_ files: [FileResult], summary: TestSummary, seconds: Double) {
        var lists: [String: [[String: Any]]] = ["successes": [], "failures": [], "errors": [], "pendings": []]
        for test in files.flatMap(\.tests) {
            let key = switch test.status {
            case .passed: "successes"
            case .failed: "failures"
            case .errored: "errors"
            case .skipped: "pendings"
            }
            // As busted's outputHandlers/base.lua `format`: the element as registered (its own
            // name and descriptor) and where it was registered; a message unless it passed.
            let trace: [String: Any] = ["short_src": test.file, "source": "@" + test.file, "currentline": test.line,
                                        "what": "Lua", "message": test.ownName ?? test.name]
            // (A file's own error is named as busted names it, `suite FILE`, by the runner.)
            var entry: [String: Any] = [
                "name": test.name,
                "trace": trace.merging(["traceback": test.traceback ?? ""]) { $1 },
                "element": ["name": test.ownName ?? test.name, "descriptor": test.descriptor ?? "it",
                            "duration": test.seconds, "attributes": [Any](), "trace": trace],
            ]
            if test.status != .passed { entry["message"] = test.message ?? "" }
            if test.status == .errored { entry["isError"] = true }
            lists[key, default: []].append(entry)
        }
        var document: [String: Any] = lists
        document["duration"] = seconds
        document = Self.showingBytes(document) as? [String: Any] ?? document
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
        StandardStreams.out(String(decoding: data, as: UTF8.self) + "\n")
    }
}
