import CEditLine
import CKLua
import Foundation

/// Where the REPL's lines come from. With a watcher (`--watch`), reading also waits on it and
/// calls `onChange` with the changed files between lines (the app reloads).
protocol LineInput: AnyObject {
    func read(prompt: String) -> String?
    func remember(_ entry: String)
    func close()
    var watch: Watch? { get set }
}

struct Watch {
    let watcher: FileWatcher
    let onChange: ([String]) -> Void

    /// Handles the watcher's events; returns whether anything changed.
    func handle() -> Bool {
        let files = watcher.changedFiles()
        guard !files.isEmpty else { return false }
        onChange(files)
        return true
    }
}

/// Standard input that is not a terminal: no prompt, no editing.
final class PipeInput: LineInput {
    var watch: Watch?
    private var buffer: [UInt8] = []
    private var atEOF = false

    func read(prompt: String) -> String? {
        guard let watch else { return readLine(strippingNewline: true) }
        while true {
            if let i = buffer.firstIndex(of: 10) {
                defer { buffer.removeSubrange(...i) }
                return String(decoding: buffer[..<i], as: UTF8.self)
            }
            if atEOF {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            switch InputWait.next(watch.watcher) {
            case .watcher: _ = watch.handle()
            case .input:
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
                if n <= 0 { atEOF = true } else { buffer += chunk[..<n] }
            }
        }
    }

    func remember(_ entry: String) {}
    func close() {}
}

/// A terminal: libedit's line editing, persistent history and completion.
final class TerminalInput: LineInput {
    static let historyLimit: Int32 = 1000
    var watch: Watch?
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
        rl_completer_word_break_characters = Completion.wordBreaks
    }

    func read(prompt: String) -> String? {
        if let watch { return readWatching(prompt: prompt, watch) }
        guard let raw = readline(prompt) else {
            print("")
            return nil
        }
        defer { free(raw) }
        return String(cString: raw)
    }

    /// libedit's callback interface, so that a change of the app's files can reload it while
    /// a line is being typed (the line is redrawn after the reload's output).
    private func readWatching(prompt: String, _ watch: Watch) -> String? {
        Callback.done = false
        Callback.line = nil
        rl_callback_handler_install(prompt, Callback.handler)
        defer { rl_callback_handler_remove() }
        while !Callback.done {
            switch InputWait.next(watch.watcher) {
            case .watcher:
                print("")
                if !watch.handle() { print("(no .lua file changed)") }
                rl_forced_update_display()
            case .input:
                rl_callback_read_char()
            }
        }
        if Callback.line == nil { print("") }
        return Callback.line
    }

    private enum Callback {
        nonisolated(unsafe) static var done = false
        nonisolated(unsafe) static var line: String?
        static let handler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { raw in
            done = true
            line = raw.map { String(cString: $0) }
            free(raw)
        }
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
    /// Words break at spaces and operators, not at `.` and `:` (`app:fi` completes as a whole).
    nonisolated(unsafe) static let wordBreaks: UnsafeMutablePointer<CChar> = strdup(" \t\n\"\\'`@$><=;|&{(,+-*/%^~#[]")
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
        let lua = engine.lua
        let base = lua.top
        defer { lua.top = base }
        lua.pushFromRegistry("ckrun.repl")
        lua.pushField("complete")
        lua.remove(at: -2)
        lua.push(text)
        do {
            try lua.call(arguments: 1, results: 1)
        } catch {
            return []
        }
        return lua.strings(ofTableAt: -1)
    }
}
