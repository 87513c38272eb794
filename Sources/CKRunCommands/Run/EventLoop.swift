#if canImport(Glibc)
import Glibc
#endif

/// The one wait of an interactive run: its input, file changes and signals are descriptors
/// `poll` watches together, and the next timer's due time is poll's timeout. Nothing polls in a
/// loop: with nothing ready the process sleeps until the next timer (≈0% CPU while idle).
final class EventLoop {
    struct Source {
        let descriptor: Int32
        let ready: () -> Void
    }

    var sources: [Source] = []
    var isDone = false

    /// Waits and dispatches until `isDone`. `timeout` says how long the next timer lets it wait
    /// (nil: forever); `expired` runs when that time has come.
    func run(timeout: () -> Double?, expired: () -> Void) {
        while !isDone {
            let wait = timeout()
            if let wait, wait <= 0 {
                expired()
                continue
            }
            var fds = sources.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let milliseconds = wait.map { Int32(clamping: Int(($0 * 1000).rounded(.up))) } ?? -1
            let n = poll(&fds, nfds_t(fds.count), milliseconds)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if n == 0 { continue }   // the timer's time: the next round fires it
            for (i, fd) in fds.enumerated() where fd.revents != 0 && !isDone { sources[i].ready() }
        }
    }
}
