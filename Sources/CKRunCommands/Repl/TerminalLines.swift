import CEditLine
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

/// A terminal: libedit's line editing through its callback interface (the event loop hands it
/// one character at a time, so timers and file changes are served while a line is typed),
/// persistent history and completion. What a timer prints while a line is being typed is
/// printed above that line, which is then drawn again as it was.
final class TerminalLines: FrontEnd {
    static let historyLimit: Int32 = 1000
    let descriptor: Int32 = 0
    let isTerminal = true
    /// Nil when history is off: `$CKRUN_HISTORY` names no regular file (`/dev/null`, a FIFO).
    private let history: HistoryFile?
    private let capture = OutputCapture()
    /// The last entry, as its history line: a repeat of it is not kept again.
    private var last: [UInt8]?
    private var prompt = "> "
    private var isEditing = false

    init(engine: Engine, prelude: @escaping () -> Value) {
        let path = StartDirectory.absolute(Environment.value("CKRUN_HISTORY") ?? (FileManager.default.homeDirectoryForCurrentUser.path + "/.ckrun_history"))
        let usable = Self.usableHistory(path)
        history = usable.map { _ in HistoryFile(path: path, limit: Int(Self.historyLimit)) }
        if case .bytes(let bytes)? = usable { last = HistoryFile.lastLine(of: bytes) }
        ckedit_stifle_history(Int32(Self.historyLimit))
        if history != nil { _ = ckedit_read_history(path) }
        Completion.engine = engine
        Completion.prelude = prelude
        // No space after a completion: a field is usually followed by `.`, `:` or `(`.
        ckedit_set_completion(Completion.generate, Completion.wordBreaks)
    }

    /// libedit, if it can be loaded; else the REPL reads plain lines.
    static var isAvailable: Bool { ckedit_load() != 0 }

    /// Whether libedit has the terminal (an `atexit` gives it back: os.exit from a timer).
    nonisolated(unsafe) private static var isEditingNow = false
    /// The terminal's modes before libedit first took it, for the forced exit's hook.
    nonisolated(unsafe) private static var cookedModes = termios()
    nonisolated(unsafe) private static var hasCookedModes = false
    private static let registerOnce: Void = {
        atexit { if TerminalLines.isEditingNow { ckedit_callback_handler_remove() } }
        hasCookedModes = tcgetattr(0, &cookedModes) == 0
        ForcedExit.setHook(forcedExit)
    }()

    /// From a signal handler just before the process ends (Ctrl-\\, the watchdog's last resort):
    /// the modes libedit changed put back, async-signal-safely (`tcsetattr`).
    private static let forcedExit: @convention(c) () -> Void = {
        if isEditingNow && hasCookedModes && ForegroundTerminal.owns(0) { tcsetattr(0, TCSANOW, &cookedModes) }
    }

    func start(prompt: String) {
        _ = Self.registerOnce
        self.prompt = prompt
        Callback.done = false
        Callback.line = nil
        ckedit_callback_handler_install(prompt, Callback.handler)
        isEditing = true
        Self.isEditingNow = true
    }

    /// A paste goes in a run of text at a time (`ckedit_insert_text_ahead`: one redraw, where
    /// libedit's one character a call redraws the whole line each time), its keys one at a time;
    /// what follows an Enter waits, read ahead, for the next prompt.
    func readable() -> [InputEvent] {
        guard isEditing else { return [] }
        if ckedit_ahead_read() > 0 && ckedit_insert_text_ahead() != 0 { return [] }
        ckedit_callback_read_char()
        guard Callback.done else { return [] }
        stopEditing()
        guard let line = Callback.line else {
            ProcessOutput.out("\n")
            return [.end]
        }
        // The bytes typed: those libedit holds escaped are put back (atk-new 01: dropped).
        return [.line(EditorBytes.restored(line))]
    }

    var hasBufferedInput: Bool { ckedit_ahead_pending() > 0 }
    var promptsBufferedLines: Bool { true }

    private func stopEditing() {
        ckedit_callback_handler_remove()
        isEditing = false
        Self.isEditingNow = false
    }

    func aside(_ body: () -> Void) {
        guard isEditing else { return body() }
        let output = capture.capture(body)
        guard !output.isEmpty else { return }
        printAbove(output)
    }

    /// Clears the prompt and line from the screen (spaces over them when they fit on one row,
    /// else a new row), writes `output`, and draws the prompt and line again, cursor in place.
    private func printAbove(_ output: [UInt8]) {
        let width = prompt.utf8.count + Int(ckedit_line_end())
        let clear = width < Int(ckedit_terminal_columns(1)) ? "\r" + String(repeating: " ", count: width) + "\r" : "\n"
        var text = Array(clear.utf8) + output
        if output.last != 10 { text.append(10) }
        fflush(stdout)
        text.withUnsafeBytes { ProcessOutput.write($0, to: .output) }
        ckedit_forced_update_display()
    }

    func interrupted(prompt: String) -> Bool {
        if isEditing { stopEditing() }
        ckedit_ahead_drop()
        ProcessOutput.out("\n")
        start(prompt: prompt)
        return false
    }

    func resized() { if isEditing { ckedit_resize_terminal() } }
    func continued() { if isEditing && ForegroundTerminal.owns(0) { ckedit_continued() } }
    func didBuild() {}

    private enum Callback {
        nonisolated(unsafe) static var done = false
        nonisolated(unsafe) static var line: [UInt8]?
        static let handler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { raw in
            done = true
            line = raw.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            free(raw)
        }
    }

    /// Keeps an entry in this session's history and appends it to the file at once (however
    /// the session ends, it is kept); a repeat of the last entry is not kept again.
    /// The entry is kept as libedit holds it (`EditorBytes.escaped`: valid UTF-8, each byte
    /// libedit would drop escaped), so that Up recalls, and Enter runs, the bytes typed.
    func remember(_ bytes: [UInt8]) {
        let entry = String(decoding: EditorBytes.escaped(bytes), as: UTF8.self)
        let line = HistoryFile.encoded(entry)
        guard !entry.trimmingBlanks().isEmpty, line != last else { return }
        last = line
        ckedit_add_history(entry)
        history?.append(entry)
    }

    func close() {
        if isEditing { stopEditing() }
        // Cut to the newest entries: another session sharing the file keeps its lines.
        history?.cut()
    }

    /// Past this a history file is no history of 1,000 lines: it is not read (nor written).
    static let historyBytesLimit = 16 << 20

    /// The history file, if it is a regular file (or none yet); else history is off, with a
    /// note unless it is `/dev/null` (the usual way to ask for none). libedit reads the whole
    /// file before the first prompt: `/dev/zero` filled memory, a FIFO blocked start-up.
    /// A file that is not there must be one the session can create: its directory missing (a
    /// typo in `$CKRUN_HISTORY`, a HOME that names nothing) or unwritable turns history off too,
    /// said as the other cases are (the lines were lost silently).
    private static func usableHistory(_ path: String) -> RegularFile.Outcome? {
        let outcome = RegularFile.read(path, limit: historyBytesLimit, what: "the history file")
        let problem: String
        switch outcome {
        case .bytes: return outcome
        case .missing:
            guard let why = uncreatable(path) else { return outcome }
            problem = why
        case .refused(let why):
            guard path != "/dev/null" else { return nil }
            problem = why
        }
        let named = Environment.value("CKRUN_HISTORY") != nil ? "$CKRUN_HISTORY" : "$HOME/.ckrun_history"
        ProcessOutput.err(ProgramName.prefixed("\(problem) (\(named)); history is off this session") + "\n")
        return nil
    }

    /// Why the file at `path` (absolute, not there) cannot be created, or nil.
    private static func uncreatable(_ path: String) -> String? {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard !BytePath.access(directory, W_OK | X_OK) else { return nil }
        let why = SystemError.text(errno)
        return Catalogue.cannotRead.message("cannot create the history file \(BytePath.shown(path)): its directory \(BytePath.shown(directory)): \(why); create the directory, or name a file in one that is writable")
    }
}
