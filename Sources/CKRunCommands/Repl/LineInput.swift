import CEditLine
import CKCore
import CKLua
import Foundation

/// Where the REPL's lines come from, as the bytes typed or piped (Lua gets them undecoded). With
/// a watcher (`--watch`), reading also waits on it and calls `onChange` with the changed files
/// between lines (the app reloads).
protocol LineInput: AnyObject {
    func read(prompt: String) -> [UInt8]?
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

    func read(prompt: String) -> [UInt8]? {
        guard let watch else { return Self.readLine() }
        while true {
            if let i = buffer.firstIndex(of: 10) {
                defer { buffer.removeSubrange(...i) }
                return Array(buffer[..<i])
            }
            if atEOF {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return buffer
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

    /// A line of C's `stdin` (shared with Lua's io.read) without its "\n" or "\r\n".
    private static func readLine() -> [UInt8]? {
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        let n = getline(&line, &capacity, stdin)
        guard n >= 0, let line else { return nil }
        var bytes = Array(UnsafeRawBufferPointer(start: line, count: n))
        if bytes.last == 10 { bytes.removeLast(); if bytes.last == 13 { bytes.removeLast() } }
        return bytes
    }
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
        ck_stifle_history(Int32(Self.historyLimit))
        _ = ck_read_history(historyPath)
        Completion.engine = engine
        // No space after a completion: a field is usually followed by `.`, `:` or `(`.
        ck_set_completion(Completion.generate, Completion.wordBreaks)
    }

    /// libedit, if it can be loaded; else the REPL reads plain lines.
    static var isAvailable: Bool { ck_edit_load() != 0 }

    func read(prompt: String) -> [UInt8]? {
        if let watch { return readWatching(prompt: prompt, watch) }
        guard let raw = ck_readline(prompt) else {
            print("")
            return nil
        }
        defer { free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
    }

    /// libedit's callback interface, so that a change of the app's files can reload it while
    /// a line is being typed (the line is redrawn after the reload's output).
    private func readWatching(prompt: String, _ watch: Watch) -> [UInt8]? {
        Callback.done = false
        Callback.line = nil
        ck_callback_handler_install(prompt, Callback.handler)
        defer { ck_callback_handler_remove() }
        while !Callback.done {
            switch InputWait.next(watch.watcher) {
            case .watcher:
                print("")
                if !watch.handle() { print("(no .lua file changed)") }
                ck_forced_update_display()
            case .input:
                ck_callback_read_char()
            }
        }
        if Callback.line == nil { print("") }
        return Callback.line
    }

    private enum Callback {
        nonisolated(unsafe) static var done = false
        nonisolated(unsafe) static var line: [UInt8]?
        static let handler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { raw in
            done = true
            line = raw.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            free(raw)
        }
    }

    func remember(_ entry: String) {
        guard !entry.trimmingCharacters(in: .whitespaces).isEmpty, entry != last else { return }
        last = entry
        ck_add_history(entry)
    }

    func close() {
        _ = ck_write_history(historyPath)
        _ = ck_history_truncate_file(historyPath, Self.historyLimit)
    }
}

/// Tab completion of globals and fields, computed by the REPL's Lua side.
enum Completion {
    nonisolated(unsafe) static var engine: Engine?
    /// Words break at `.` and `:` too, so the candidates list shows field names; the
    /// expression before them is read from the line (`app.root:up` → `updateState`).
    nonisolated(unsafe) static let wordBreaks: UnsafeMutablePointer<CChar> = strdup(" \t\n\"\\'`@$><=;|&{(,+-*/%^~#[].:")
    /// The table `repl.lua` returned.
    nonisolated(unsafe) static var prelude: Value = .nil
    nonisolated(unsafe) static var candidates: [String] = []

    static let generate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { text, state in
        if state == 0 {
            let word = text.map { String(cString: $0) } ?? ""
            let expression = expressionBeforeCursor() ?? word
            // Candidates come back whole (`app.root:updateState`); libedit wants the word.
            let cut = max(0, expression.utf8.count - word.utf8.count)
            candidates = compute(expression).map { String(decoding: $0.utf8.dropFirst(cut), as: UTF8.self) }
        }
        let i = Int(state)
        guard i < candidates.count else { return nil }
        return strdup(candidates[i])
    }

    /// The name-and-field chain that ends at the cursor (`app.root:up`).
    private static func expressionBeforeCursor() -> String? {
        guard let buffer = ck_line_buffer() else { return nil }
        let line = Array(String(cString: buffer).utf8.prefix(Int(max(0, ck_point()))))
        var start = line.count
        while start > 0, let c = Optional(line[start - 1]),
              c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") || c >= 0x80
                || (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7a) {
            start -= 1
        }
        return String(decoding: line[start...], as: UTF8.self)
    }

    private static func compute(_ text: String) -> [String] {
        guard let engine else { return [] }
        guard let found = try? engine.call(engine.field("complete", of: prelude), [.string(text)]).first else { return [] }
        return engine.strings(of: found)
    }
}
