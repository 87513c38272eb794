import CEditLine
import CKCore
import CKLua
import Foundation

/// Where the REPL's lines come from.
protocol LineInput {
    func read(prompt: String) -> String?
    func remember(_ entry: String)
    func close()
}

/// Standard input that is not a terminal: no prompt, no editing.
struct PipeInput: LineInput {
    func read(prompt: String) -> String? { readLine(strippingNewline: true) }
    func remember(_ entry: String) {}
    func close() {}
}

/// A terminal: libedit's line editing, persistent history and completion.
final class TerminalInput: LineInput {
    static let historyLimit: Int32 = 1000
    private let historyPath: String
    private var last: String?

    init(engine: Engine) {
        historyPath = ProcessInfo.processInfo.environment["CKRUN_HISTORY"]
            ?? (FileManager.default.homeDirectoryForCurrentUser.path + "/.ckrun_history")
        setlocale(LC_CTYPE, "")   // libedit reads multibyte (UTF-8) input only under a locale
        stifle_history(Self.historyLimit)
        _ = read_history(historyPath)
        Completion.engine = engine
        rl_completion_entry_function = Completion.generate
    }

    func read(prompt: String) -> String? {
        guard let raw = readline(prompt) else {
            print("")
            return nil
        }
        defer { free(raw) }
        return String(cString: raw)
    }

    func remember(_ entry: String) {
        guard !entry.trimmingCharacters(in: .whitespaces).isEmpty, entry != last else { return }
        last = entry
        add_history(entry)
    }

    func close() {
        _ = write_history(historyPath)
        _ = history_truncate_file(historyPath, Self.historyLimit)
    }
}

/// Tab completion of globals and fields, computed by the REPL's Lua side.
enum Completion {
    nonisolated(unsafe) static var engine: Engine?
    /// The table `repl.lua` returned.
    nonisolated(unsafe) static var prelude: Value = .nil
    nonisolated(unsafe) static var candidates: [String] = []

    static let generate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { text, state in
        if state == 0 {
            candidates = compute(text.map { String(cString: $0) } ?? "")
        }
        let i = Int(state)
        guard i < candidates.count else { return nil }
        return strdup(candidates[i])
    }

    private static func compute(_ text: String) -> [String] {
        guard let engine else { return [] }
        guard let found = try? engine.call(engine.field("complete", of: prelude), [.string(text)]).first else { return [] }
        return engine.strings(of: found)
    }
}
