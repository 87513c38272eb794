import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's one timeout timer and Ctrl-C handler (`ckwatchdog.c` acts on one running Lua
/// state per process), lent to one runtime's outermost call at a time. Runtimes called at once
/// on two threads took them from each other: a timed loop beside another runtime's calls was
/// never stopped, and the watchdog's last resort ended the process (h-lib5).
enum ProcessWatchdog {
    /// The thread whose call holds them (`Confinement.currentThread`), 0 while none does: a
    /// call on that same thread (a runtime called inside another's call) cannot wait for them.
    private static let holder = Atomic<UInt>(0)

    /// Takes them for a call on this thread; false while another call holds them.
    @inline(__always)
    static func take() -> Bool {
        holder.compareExchange(expected: 0, desired: Confinement.currentThread, ordering: .acquiringAndReleasing).exchanged
    }

    /// ``take()``, waiting up to `seconds` while a call on another thread holds them (each
    /// call is short or bounded by its own timeout: parallel tests each with a timed runtime
    /// take turns, attack embed 10). False at once when this thread's own call holds them.
    static func take(waitingUpTo seconds: Double) -> Bool {
        if take() { return true }
        let me = Confinement.currentThread
        let end = ContinuousClock.now + .seconds(min(seconds, 1e6))   // a timeout of 1e300 is accepted
        var pause = 20_000   // ns, doubled up to 1 ms: a call usually ends within a few
        while holder.load(ordering: .relaxed) != me, ContinuousClock.now < end {
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&interval, nil)
            if take() { return true }
            pause = min(pause * 2, 1_000_000)
        }
        return false
    }

    /// Gives them back at the end of the call that took them.
    @inline(__always)
    static func giveBack() { holder.store(0, ordering: .releasing) }
}
