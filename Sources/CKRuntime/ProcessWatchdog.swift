import Synchronization

/// The process's one timeout timer and Ctrl-C handler (`ckwatchdog.c` acts on one running Lua
/// state per process), lent to one runtime's outermost call at a time. Runtimes called at once
/// on two threads took them from each other: a timed loop beside another runtime's calls was
/// never stopped, and the watchdog's last resort ended the process (h-lib5).
enum ProcessWatchdog {
    /// The runtime whose call holds them (its address), 0 while none does.
    private static let holder = Atomic<UInt>(0)

    /// Takes them for the runtime `id`; false while another runtime's call holds them.
    @inline(__always)
    static func take(for id: UInt) -> Bool {
        holder.compareExchange(expected: 0, desired: id, ordering: .acquiringAndReleasing).exchanged
    }

    /// Gives them back at the end of the call that took them.
    @inline(__always)
    static func giveBack() { holder.store(0, ordering: .releasing) }
}
