import CKLua
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `--jobs` worker as a fork server: it holds one prepared state (`SpecSession`: luassert and
/// the preludes loaded, the run's settings given; made by the parent before it forked the
/// worker, or by the worker) and runs each requested file in a process forked from itself, which
/// inherits that state copy-on-write instead of building one. The file's process answers on the
/// worker's standard output itself; the worker waits for it to end and, when it did not end
/// cleanly, ends the same way, so the parent sees what it saw when the worker ran the file.
enum ForkServer {
    /// Files share no state (`auto-insulate = false` keeps one per worker), and `--lang` loads a
    /// module found on the project's path each time a state is configured.
    static func applies(to settings: TestRunSettings) -> Bool { !settings.sharedState && settings.lang == nil }

    /// A configured state for files to start from; nil when it cannot be made (each file then
    /// makes its own and reports why).
    static func prepare(_ settings: TestRunSettings) -> SpecSession? {
        applies(to: settings) ? try? SpecStates(settings: settings, shared: false).session() : nil
    }

    /// Runs each request's file in a forked process until the requests end.
    static func serve(_ reader: LineReader, token: String, settings: TestRunSettings, prepared: SpecSession) {
        let server = getpid()
        while let line = reader.nextText(), let request = WorkerProtocol.parse(request: line) {
            fflush(nil)   // nothing buffered here is written again by the file's process
            let child = fork()
            if child == 0 { runFile(request, token: token, settings: settings, prepared: prepared, server: server) }
            guard child > 0 else {   // no process to be had: a fresh state here
                WorkerLoop.answer(request, token: token, states: SpecStates(settings: settings))
                continue
            }
            let status = awaitEnd(of: child)
            if !WaitStatus.exitedCleanly(status) { endLike(status) }
        }
    }

    /// The file's process: the prepared state runs the file, the state closes (its finalizers
    /// run, as in a state made for the file), then the answer goes out and the process ends.
    /// A close that does not end (a finalizer looping under --timeout) ends the process before
    /// it answered, so the file that made it is the one that fails, not the worker's next.
    private static func runFile(_ request: (index: Int, path: String), token: String, settings: TestRunSettings,
                                prepared: SpecSession, server: pid_t) -> Never {
        guard Engine.endWithParent(server) else { _exit(1) }
        var answers: [[UInt8]] = []
        WorkerLoop.answer(request, token: token, states: SpecStates(settings: settings, prepared: prepared)) { answers.append($0) }
        prepared.engine.close()
        fflush(nil)
        answers.forEach(WorkerLoop.write)
        _exit(0)
    }

    /// The file's process's wait status once it ended. One found stopped (a test ran
    /// `kill -STOP $PPID`) and still stopped a second later never answers: this worker stops
    /// itself, and the parent ends it as it ends a stopped worker (`mayStillAnswer`), which ends
    /// the file's process too (`endWithParent`). A Ctrl-Z stops and continues both.
    private static func awaitEnd(of child: pid_t) -> Int32 {
        var status: Int32 = 0
        while true {
            if waitpid(child, &status, WUNTRACED) == -1 {
                if errno == EINTR { continue }
                return 1 << 8   // cannot tell: as a process that ended with status 1
            }
            guard WaitStatus.isStopped(status) else { return status }
            sleep(1)
            if ProcessState.isStopped(child) { raise(SIGSTOP) }
        }
    }

    /// Ends this worker as its file's process ended: by the same signal, or with the same status.
    private static func endLike(_ status: Int32) -> Never {
        fflush(nil)
        if let signal = WaitStatus.signal(status) {
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        _exit(WaitStatus.signal(status) == nil ? (status >> 8) & 0xff : 1)
    }
}

/// What `waitpid` reports, read as its macros read it.
enum WaitStatus {
    static func isStopped(_ status: Int32) -> Bool { status & 0xff == 0x7f }
    static func exitedCleanly(_ status: Int32) -> Bool { status & 0x7f == 0 && (status >> 8) & 0xff == 0 }
    /// The signal that ended the process, if one did.
    static func signal(_ status: Int32) -> Int32? {
        let signal = status & 0x7f
        return signal == 0 || signal == 0x7f ? nil : signal
    }
}

/// A process's state as the kernel reports it.
enum ProcessState {
    /// The state in /proc is "T" (stopped by a signal).
    static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return false }
        return stat[nameEnd...].dropFirst(2).first == "T"
    }
}
