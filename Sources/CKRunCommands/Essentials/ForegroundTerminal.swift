import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// Whether this process may set a terminal's modes. One outside the terminal's foreground process
/// group (`timeout N ckrun app.lua --tui` from a script: `timeout` gives it a group of its own;
/// a job sent to the background) is stopped (SIGTTOU) when it does, and stays stopped after
/// SIGTERM and SIGCONT, as the restore is tried again: every way out that gives the terminal back
/// asks this first. Async-signal-safe (`tcgetpgrp`, `getpgrp`).
enum ForegroundTerminal {
    /// True when `descriptor` is no terminal, or this process is in its foreground group.
    static func owns(_ descriptor: Int32) -> Bool {
        let group = tcgetpgrp(descriptor)
        return group < 0 || group == getpgrp()
    }

    /// From a SIGTERM handler: ends the process at once, by the signal, when standard input is a
    /// terminal it does not own (a shell restores its terminal's modes when it gets it back); a
    /// top, a Python curses program end the same way. Returns otherwise.
    static func endIfInBackground(by signal: Int32) {
        if !owns(0) { ProcessOutput.endBy(signal) }
    }

    /// Before the run reads its terminal: outside the foreground group the terminal stops this
    /// process at its first read or change of modes, before anything is drawn; say why first, on
    /// standard error, while writing still goes through (atk-apps3 06: a blank pane for 60 s).
    /// `errorDescriptor`: where standard error stands while the live view holds fd 2.
    static func noteIfInBackground(errorDescriptor: Int32? = nil) {
        guard isatty(0) == 1, !owns(0) else { return }
        var note = ProgramName.prefixed("not in the terminal's foreground process group (started by timeout without --foreground, or as a background job): the terminal stops ckrun when it reads the keyboard; run it with timeout --foreground, or bring it back with fg") + "\n"
        note.withUTF8 { ProcessOutput.write(UnsafeRawBufferPointer($0), to: .error, descriptor: errorDescriptor) }
    }
}
