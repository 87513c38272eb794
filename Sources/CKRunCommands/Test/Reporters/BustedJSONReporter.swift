import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--output json`: busted's JSON report (its `-o json`): one object with the lists
/// `successes`, `failures`, `errors` and `pendings`, each entry naming a test by its full
/// name, its element by its own name and descriptor, with its message and where it is, and the
/// run's `duration`.
final class BustedJSONReporter: TestReporter {
    func start(seed: UInt64?) {
        if let seed { StandardStreams.err("ckrun test: shuffled with seed \(seed) (run again with --seed \(seed))\n") }
    }

    /// What the file and its tests printed: busted writes it to standard output ahead of the
    /// document; here it goes to standard error, so standard output stays one JSON document.
    func report(_ file: FileResult) {
        let printed = ([file.output] + file.tests.map(\.output)).filter { !$0.isEmpty }
        if !printed.isEmpty { StandardStreams.err(printed.joined()) }
    }

    func finish(_ run: ReportedRun) {
        var lists: [String: [JSONValue]] = ["successes": [], "failures": [], "errors": [], "pendings": []]
        for test in run.files.flatMap(\.tests) {
            let key = switch test.status {
            case .passed: "successes"
            case .failed: "failures"
            case .errored: "errors"
            case .skipped: "pendings"
            }
            lists[key, default: []].append(Self.entry(test))
        }
        var document = lists.mapValues(JSONValue.array)
        document["duration"] = .number(run.seconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(JSONValue.object(document))) ?? Data("{}".utf8)
        StandardStreams.out(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// As busted's outputHandlers/base.lua `format`: the element as registered (its own name and
    /// descriptor) and where it was registered; a message unless it passed; the `trace` of a
    /// failure or error is where it was raised (busted's getTrace), else the element's. (A file's
    /// own error is named as busted names it, `suite FILE`, by the runner.)
    private static func entry(_ test: TestResult) -> JSONValue {
        let registered: [String: JSONValue] = ["short_src": .text(test.placeFile), "source": .text("@" + test.placeFile),
                                               "currentline": .integer(test.line), "what": .text("Lua"),
                                               "message": .text(test.ownName ?? test.shownName)]
        let element: [String: JSONValue] = ["name": .text(test.ownName ?? test.shownName), "descriptor": .text(test.descriptor ?? "it"),
                                            "duration": .number(test.seconds), "attributes": .array([]), "trace": .object(registered)]
        var trace = test.didFail ? test.raised.map { raiseTrace($0, message: test.message ?? "") } ?? registered : registered
        trace["traceback"] = .text(test.traceback ?? "")
        var entry: [String: JSONValue] = ["name": .text(test.shownName), "trace": .object(trace), "element": .object(element)]
        if test.status != .passed { entry["message"] = .text(test.message ?? "") }
        if test.status == .errored { entry["isError"] = .bool(true) }
        if let seed = test.seed, test.didFail { entry["randomseed"] = Int(seed).map(JSONValue.integer) ?? .text(seed) }
        return .object(entry)
    }

    /// busted's trace of a failure: the raising frame's getinfo fields, and the error as raised
    /// (luassert's is a table with its `message`; any other is shown as the message's text).
    private static func raiseTrace(_ site: RaiseSite, message: String) -> [String: JSONValue] {
        ["short_src": .text(site.file), "source": .text(site.source),
         "currentline": .integer(site.line), "linedefined": .integer(site.lineDefined),
         "lastlinedefined": .integer(site.lastLineDefined), "what": .text(site.what),
         "message": site.isAssertion ? .object(["message": .text(message)]) : .text(message)]
    }
}

/// A JSON document's value, encoded by FoundationEssentials' JSONEncoder (full Foundation's
/// JSONSerialization is not linked; see `OutputDescriptor`).
enum JSONValue: Encodable {
    case string(String), integer(Int), number(Double), bool(Bool), array([JSONValue]), object([String: JSONValue])

    /// A string with the bytes that are not UTF-8 shown as `\xE9` (`ByteText`).
    static func text(_ text: String) -> JSONValue { .string(ByteText.shown(text)) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
