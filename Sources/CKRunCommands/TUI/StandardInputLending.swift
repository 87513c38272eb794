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
    /// Before the view: the line being written as the terminal last showed it.
    nonisolated(unsafe) private static var shownPartial = ""

    /// Before the script runs, with what it prints held in `output`.
    static func starting(output: OutputLog) -> StandardInput.Lender {
        (Self.output, onScreen, shownPartial) = (output, false, "")
        return lend
    }

    static func start(engine: Engine, output: OutputLog) {
        (Self.output, onScreen) = (output, true)
        StandardInput.own(in: engine, lend: lend)
    }

    static func stop(engine: Engine) {
        StandardInput.own(in: engine, lend: nil)
        output = nil
    }

    private static let lend: StandardInput.Lender = { lending, read, length in
        guard let output, !output.isClosed else { return }
        if lending == 0 {
            if let read, length > 0 { output.append(UnsafeRawBufferPointer(start: read, count: length)) }
            if onScreen { ckcurses_screen_lend(0) } else { shownPartial = output.shownAfterRead() }
            return
        }
        let text: String
        if onScreen {
            output.collect()
            ckcurses_screen_lend(1)
            text = "ckrun: the live view lends the terminal to the script's read of standard input; Enter ends the line\n"
                + output.unfinishedLine
        } else {
            let lines = output.collect()
            let partial = output.unfinishedLine
            let shown = lines.isEmpty && partial.hasPrefix(shownPartial) ? String(partial.dropFirst(shownPartial.count)) : partial
            text = lines.map { $0 + "\n" }.joined() + shown
        }
        text.withCString { _ = Glibc.write(output.terminalOutput, $0, strlen($0)) }
    }
}
