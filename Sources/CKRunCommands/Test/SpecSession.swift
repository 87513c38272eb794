import CKCore
import CKLua
import Foundation

/// One test file's fresh Lua state with the spec language installed, and the calls the
/// runner makes into it. Every call that runs user code gets its own time limit.
final class SpecSession {
    let engine: Engine

    init(settings: TestRunSettings) throws(LuaError) {
        engine = Engine(configuration: .init(
            sandbox: settings.sandbox, timeoutSeconds: nil, memoryLimitBytes: settings.memoryLimitBytes))
        try SpecPrelude.install(in: engine)
    }

    /// Runs the test file's chunk: its `describe` and `it` calls build the tree.
    func load(code: String, path: String, timeout: Double) throws(LuaError) {
        engine.setArguments(script: path, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
        // `require` finds modules beside the test file and in the project root (SPEC §9).
        engine.installSiblingSearcher(directories: [Engine.directory(of: path), FileManager.default.currentDirectoryPath])
        let chunk = try engine.load(code, name: "@" + path)
        try engine.withDeadline(timeout) { () throws(LuaError) in _ = try engine.call(chunk) }
    }

    /// Calls the runner's operation `op` in Lua; returns its result if it is a string.
    @discardableResult
    func call(_ op: String, _ arguments: String..., timeout: Double? = nil) throws(LuaError) -> String? {
        // The prelude's entry point, read raw (a strict `_G` does not see it) each call: a test
        // may replace it, and then its own calls fail as they did before.
        let entry = engine.global("(ckrun test)")
        let values = [Value.string(op)] + arguments.map(Value.string)
        let results = try engine.withDeadline(timeout) { () throws(LuaError) in try engine.call(entry, values) }
        return results.first.flatMap(engine.text)
    }

    /// Runs user code (a hook or a test body) and says how it ended.
    func phase(_ op: String, id: Int, timeout: Double) -> PhaseOutcome {
        do {
            try call(op, String(id), timeout: timeout)
            return .passed
        } catch {
            return classify(error)
        }
    }

    func classify(_ error: LuaError) -> PhaseOutcome {
        let traceback = Traceback.clean(error.traceback)
        switch (try? call("classify", error.message)) ?? "error" {
        case "failure": return .failed(message: error.message, traceback: traceback)
        case "pending": return .skipped(reason: String(error.message.dropFirst("pending: ".count)))
        default: return .errored(message: error.message, traceback: traceback)
        }
    }
}

/// How one phase of a test ended.
enum PhaseOutcome {
    case passed
    case failed(message: String, traceback: String)
    case errored(message: String, traceback: String)
    case skipped(reason: String)
}

/// Tracebacks without the runner's own frames.
enum Traceback {
    static func clean(_ traceback: String) -> String {
        let noise = ["(ckrun test", "[C]: in ?", "[C]: in function 'error'", "(...tail calls...)"]
        let lines = traceback.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !noise.contains { line.contains($0) }
        }
        return lines.count <= 1 ? "" : lines.joined(separator: "\n")
    }
}
