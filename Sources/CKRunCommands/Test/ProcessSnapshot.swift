import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// What a spec file can change for the whole process, taken once before the first file and put
/// back after every file, by the serial run and by each `--jobs` worker alike (as if each file
/// had a process of its own): the current directory, the locale, the signal mask, the signal
/// actions and the interval timer, the umask, and descriptors 0–2. What no runner can undo is
/// in docs/testing.md ("What a spec file can still change").
final class ProcessSnapshot {
    private static let signals = (1..<Int32(32)).filter { $0 != SIGKILL && $0 != SIGSTOP }

    /// The directory, held open: a file's `lfs.chdir` may go anywhere, even where the path no longer leads.
    private let directory: Int32
    private let locale: String?
    private var mask = sigset_t()
    private var actions: [Int32: sigaction] = [:]
    private let fileMask: mode_t
    /// Close-on-exec copies of descriptors 0, 1 and 2 (-1 for one that was closed).
    private let streams: [Int32]

    init() {
        directory = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        locale = setlocale(LC_ALL, nil).map { String(cString: $0) }
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        for signal in Self.signals {
            var action = sigaction()
            if sigaction(signal, nil, &action) == 0 { actions[signal] = action }
        }
        fileMask = umask(0o022)
        umask(fileMask)
        streams = (0..<Int32(3)).map { fcntl($0, F_DUPFD_CLOEXEC, 3) }
    }

    deinit {
        if directory >= 0 { close(directory) }
        for copy in streams where copy >= 0 { close(copy) }
    }

    /// Puts back what was taken: each step costs a system call or two, no more than a file's state does.
    func restore() {
        if directory >= 0 { _ = fchdir(directory) }
        if let locale, let now = setlocale(LC_ALL, nil), strcmp(now, locale) != 0 { setlocale(LC_ALL, locale) }
        restoreSignals()
        umask(fileMask)
        fflush(nil)   // what a test left in stdio's buffers goes where it wrote, before fd 1 is put back
        for (fd, copy) in streams.enumerated() where copy >= 0 { dup2(copy, Int32(fd)) }
    }

    /// The timer a C module's `alarm` armed is stopped (between files none of the runner's runs).
    private func restoreSignals() {
        var off = itimerval()
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &off, nil)
        for (signal, var action) in actions { sigaction(signal, &action, nil) }
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        Engine.signalActionsRestored()
    }
}
