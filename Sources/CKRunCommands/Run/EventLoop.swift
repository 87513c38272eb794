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
    /// (nil: forever); `expired` runs when that time has come; `idle` before each wait (what a
    /// round changed is drawn once). Ready descriptors are served before due timers in each
    /// round, so timers that are always due cannot starve the input.
    func run(timeout: () -> Double?, expired: () -> Void, idle: () -> Void = {}) {
        while !isDone {
            idle()
            var fds = sources.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            let milliseconds = timeout().map(Self.pollMilliseconds) ?? -1
            let n = poll(&fds, nfds_t(fds.count), milliseconds)
            if n < 0 && errno != EINTR { return }
            if n > 0 {
                for (i, fd) in fds.enumerated() where fd.revents != 0 && !isDone { sources[i].ready() }
            }
            if !isDone, let wait = timeout(), wait <= 0 { expired() }
        }
    }

    /// A wait in seconds as poll's timeout, clamped in Double before any integer conversion: a
    /// timer due in 1e300 s (or NaN) is a script's number, and converting it unclamped traps.
    static func pollMilliseconds(_ seconds: Double) -> Int32 {
        let milliseconds = (seconds * 1000).rounded(.up)
        guard milliseconds > 0 else { return 0 }
        return milliseconds < Double(Int32.max) ? Int32(milliseconds) : Int32.max
    }
}
