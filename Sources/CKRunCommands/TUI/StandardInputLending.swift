import CCurses
import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// A script that reads standard input while the live view owns the terminal (`io.read()` in a
/// handler) gets a line as in the line REPL: the view gives the terminal back in line mode on
/// the shell's screen, with what the script wrote last (its question) shown, and takes it again
/// after the line, as it does after a shell-out; the answer typed is copied after the question
/// in the output pane, where the terminal showed it. In the view's own modes Enter is a CR,
/// never the line end the read waits for: it waited for ever. Before the view starts, while
/// what the script prints is held for the pane, a read shows what was printed since the last
/// read on the terminal first, so its question is seen.
enum StandardInputLending {
    nonisolated(unsafe) private static var output: OutputLog?
    /// Whether the view is on the screen (else the script is still starting).
    nonisolated(unsafe) private static var onScreen = false
    /// The view lent the terminal and has not taken it back: a script reading line after line
    /// (`io.lines()`) keeps it, and the view takes it when it next draws (`takeBack`).
    nonisolated(unsafe) private static var lentNow = false
    /// While the terminal is the script's: the line being written as the terminal last showed it.
    nonisolated(unsafe) private static var shownPartial = ""

    /// Lines the turn printed before its read shown on the terminal when it is lent, at most.
    private static let shownLinesAtMost = 50

    /// Before the script runs, with what it prints held in `output`.
    static func starting(output: OutputLog) -> StandardInput.Lender {
        (Self.output, onScreen, lentNow, shownPartial) = (output, false, false, "")
        return lend
    }

    static func start(engine: Engine, output: OutputLog) {
        (Self.output, onScreen, lentNow) = (output, true, false)
        StandardInput.own(in: engine, lend: lend)
    }

    static func stop(engine: Engine) {
        StandardInput.own(in: engine, lend: nil)
        output = nil
    }

    /// The terminal back in the view's modes if a read lent it, before the view draws or reads keys.
    static func takeBack() {
        guard lentNow else { return }
        lentNow = false
        // What was typed for the script and not read by it (a second line pasted into a one-line
        // answer) is dropped: in the view's modes it was keys, and a `q` in it quit the view.
        if ForegroundTerminal.owns(0) { _ = tcflush(0, TCIFLUSH) }
        // The terminal may have been resized while lent: drawn at its size at once, not at the
        // old one until the resize's signal is served.
        ckcurses_screen_resize()
        ckcurses_screen_lend(0)
    }

    private static let lend: StandardInput.Lender = { lending, read, length in
        guard let output, !output.isClosed else { return }
        if lending == 0 {
            if let read, length > 0 { output.append(UnsafeRawBufferPointer(start: read, count: length)) }
            shownPartial = output.shownAfterRead()
            return
        }
        let text: String
        if onScreen && !lentNow {
            // What the turn printed before its question (the pane has not drawn it yet), as a
            // terminal would show it; the last screenful at most (the pane keeps it all).
            let lines = output.collect().suffix(shownLinesAtMost)
            ckcurses_screen_lend(1)
            lentNow = true
            text = "ckrun: the live view lends the terminal to the script's read of standard input; Enter ends the line\n"
                + lines.map { $0 + "\n" }.joined() + output.unfinishedLine
        } else {
            // What the script wrote since the terminal last showed its output.
            let lines = output.collect()
            let partial = output.unfinishedLine
            let rest = lines.isEmpty && partial.hasPrefix(shownPartial) ? String(partial.dropFirst(shownPartial.count)) : partial
            text = lines.map { $0 + "\n" }.joined() + rest
        }
        text.withCString { _ = Glibc.write(output.terminalOutput, $0, strlen($0)) }
    }
}
