import CCurses
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The terminal given back on every way out of the live view: quit, Ctrl-C and SIGTERM end the
/// event loop, which closes the view; `os.exit` in a turn runs `atexit`; where nothing else can
/// run (the watchdog's second tick under `--timeout`, a second Ctrl-C while a turn is stuck in C)
/// the engine's forced-exit hook ends curses and puts the descriptors back before the process
/// ends.
enum TerminalRestore {
    nonisolated(unsafe) private static var output: OutputLog?

    static func install(_ output: OutputLog) {
        Self.output = output
        _ = registerOnce
        ForcedExit.setHook(forcedExit)
    }

    private static let registerOnce: Void = { atexit { TerminalRestore.leave() } }()

    /// Curses ended (the screen and modes as they were), standard output and error back on the
    /// terminal, and what was written since the view last showed it written there.
    static func leave() {
        ForcedExit.setHook(nil)
        endScreen()
        output?.close()
        output = nil
    }

    /// From a signal handler, just before the process ends: no allocation, no Swift runtime work
    /// beyond reading two integers (`OutputLog.putBack`); ncurses' endwin writes the terminal's
    /// own strings and sets its modes back.
    private static let forcedExit: @convention(c) () -> Void = {
        endScreen()
        OutputLog.putBack()
    }

    /// Curses ended, unless the process is in the background, where setting the terminal's modes
    /// would stop it for good (`ForegroundTerminal`).
    private static func endScreen() {
        if ForegroundTerminal.owns(0) { ckcurses_screen_end() }
    }
}
