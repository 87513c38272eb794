import CCurses
import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// A script that reads standard input while the live view owns the terminal (`io.read()` in a
/// handler) gets a line as in the line REPL: the view gives the terminal back in line mode on
/// the shell's screen, with what the script wrote last (its question) shown, and takes it again
/// after the line, as it does after a shell-out. In the view's own modes Enter is a CR, never
/// the line end the read waits for: it waited for ever.
enum StandardInputLending {
    nonisolated(unsafe) private static var output: OutputLog?

    static func start(engine: Engine, output: OutputLog) {
        Self.output = output
        StandardInput.lend(in: engine, to: lend)
    }

    static func stop(engine: Engine) {
        StandardInput.lend(in: engine, to: nil)
        output = nil
    }

    private static let lend: @convention(c) (Int32) -> Void = { lending in
        guard let output else { return }
        if lending == 0 {
            ckcurses_screen_lend(0)
            return
        }
        output.collect()
        ckcurses_screen_lend(1)
        let text = "ckrun: the live view lends the terminal to the script's read of standard input; Enter ends the line\n"
            + output.unfinishedLine
        text.withCString { _ = Glibc.write(output.terminalOutput, $0, strlen($0)) }
    }
}
