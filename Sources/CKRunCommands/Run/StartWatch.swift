import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun app.lua --watch` when the file fails before its app runs (a syntax error, an error in
/// its chunk or first build): the error was printed; the run waits for a `.lua` file of the
/// app's directory to change, then starts again, as a watcher does (the fix saved next is
/// loaded). Watching starts before the first run, so a save while it fails is not missed.
final class StartWatch {
    private let watcher: FileWatcher?

    init(script: String) {
        watcher = FileWatcher(directory: SiblingSearcher.directory(of: script))
    }

    /// After a failed start: says so, waits for a change (Ctrl-C ends the process as it ends
    /// any watcher), and returns true to start again; false when nothing can be watched.
    func waitForAChange() -> Bool {
        guard let watcher else { return false }
        ProcessOutput.err(ProgramName.prefixed("--watch: the app did not start; waiting for a change to its .lua files (Ctrl-C to leave)") + "\n")
        while true {
            var p = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, -1)
            if ready < 0 && errno != EINTR { return false }
            guard ready > 0 else { continue }
            let files = watcher.changedFiles()
            if files.isEmpty { continue }
            ProcessOutput.err("changed: \(files.joined(separator: ", ")); starting again\n")
            return true
        }
    }
}
