#if canImport(Glibc)
import Glibc
#endif

/// The signals an interactive run waits for beside its input: SIGINT (Ctrl-C at the prompt),
/// SIGTERM and SIGHUP (its terminal closed: the run ends as a SIGTERM ends it, its history
/// cut and its views let go), SIGWINCH and SIGCONT (`fg` after Ctrl-Z: the line editor takes
/// the terminal again).
/// Each handler only writes the signal's number to a pipe the event loop polls (the self-pipe
/// trick: no work in the handler, no busy wait). During a turn the turn's own handler takes
/// SIGINT (`[interrupted]`) and puts this one back after; a SIGTERM during a turn also stops the
/// turn, so the run can end and restore the terminal.
enum SignalPipe {
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGCONT]
    nonisolated(unsafe) private static var fds: [Int32] = [-1, -1]
    /// The pipe's write end, apart: the handler reads a plain integer, not an array.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// Called from the handler to stop a running turn (async-signal-safe: sets a hook).
    nonisolated(unsafe) static var stopTurn: (@convention(c) () -> Void)?
    /// Set by the handler on SIGTERM or SIGHUP: the run serves nothing more (no next input line, no next
    /// timer) once the turn it stopped has returned.
    nonisolated(unsafe) static var terminating: sig_atomic_t = 0

    /// The end the event loop polls; installs the handlers the first time.
    static var descriptor: Int32 {
        if fds[0] < 0 { install() }
        return fds[0]
    }

    private static func install() {
        guard pipe(&fds) == 0 else { return }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        writeEnd = fds[1]
        terminating = 0
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(SignalPipe.writeEnd, &byte, 1)
            if signal == SIGTERM || signal == SIGHUP {
                ForegroundTerminal.endIfInBackground(by: signal)
                SignalPipe.terminating = 1
                SignalPipe.stopTurn?()
            }
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals {
            sigaction(s, &action, nil)
            sigaddset(&set, s)
        }
        // A parent (a test runner starting tmux) may have left them blocked.
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signals that arrived since the last call, in order.
    static func drain() -> [Int32] {
        var out: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            out += buffer[..<n].map { Int32($0) }
        }
        return out
    }
}
