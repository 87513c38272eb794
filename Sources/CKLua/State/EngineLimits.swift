import CKCore
import CLua
import CLuaShims

/// `--timeout` and `--memory-limit` for Swift work a script sizes (`WorkLimits`): the core's
/// loops tick `runtime.limits`, and this checks Ctrl-C, the deadline and Lua's bytes plus the
/// Swift bytes the loop holds against the limit.
extension Engine {
    func installWorkLimits() {
        let L = lua.L
        // The runtime keeps the state (its counters) alive: it can still release after closing.
        runtime.limits.held = lua.heldCounter
        runtime.limits.heldOwner = lua
        runtime.limits.heldGrew = { [unowned(unsafe) lua] in lua.noteHeldGrew() }
        runtime.limits.check = { extraBytes in
            if ckstate_interrupt_pending(L) != 0 {
                throw RuntimeError(.interrupted, "stopped by Ctrl-C")
            }
            if ckwatchdog_deadline_passed(L) != 0 {
                throw RuntimeError(.timeout, "the script ran past its time limit; find the loop that does not end, or \(Remedy.raiseTheTimeout)")
            }
            guard let m = ckstate_memory_of(L), m.pointee.limit > 0 else { return }
            if m.pointee.used + m.pointee.held + max(0, extraBytes) > m.pointee.limit {
                throw RuntimeError(.memoryLimit,
                    "the script used more than its memory limit (\(m.pointee.limit / (1024 * 1024)) MB), counting what ckrun built for it; \(Remedy.raiseTheMemoryLimit) or use less memory")
            }
        }
    }
}

extension Engine {
    /// Whether the running turn's deadline passed (a Swift function that ran long can say so
    /// itself: the hook would only strike at the next Lua instruction, naming no one).
    public var deadlinePassed: Bool { ckwatchdog_deadline_passed(lua.L) != 0 }

    /// Collects garbage fully (finalizers under Lua's protection): for an embedder whose call
    /// the memory limit stopped, so what the refused call made goes before the next one starts.
    public func collectGarbage() { lua.collectGarbage() }

    /// `[memoryLimit]` naming `what` when the values Swift just made for Lua (a library's model
    /// or arguments) passed the memory limit: made in Swift, they are never refused by the
    /// allocator, and Lua code that allocates nothing ran on past the limit.
    func refuseOvershoot(by what: String) throws(LuaError) {
        guard lua.overshootStands() else { return }
        throw LuaError(message: Catalogue.memoryLimit.message("\(what) needs more than the memory limit (\(lua.memoryLimitMegabytes) MB) with what the script holds; pass less, or raise the limit"))
    }

    /// Counts a name Swift keeps for good on the script's behalf (a class, struct or control
    /// class name, a warning given once): once the script's string is collected, its bytes are
    /// Swift's alone (issue 24, class 5). Call it when the name is new.
    func keepForGood(_ name: String) { runtime.limits.hold(name.utf8.count + 64) }

    /// Stops the running turn's Lua code with `[interrupted] stopped by SIGTERM`, if a turn runs: for a signal
    /// handler (it only sets a flag and a hook).
    public static let interruptRunningTurn: @convention(c) () -> Void = ckwatchdog_interrupt_running
}

extension Engine {
    /// Sets the time limit of the Lua code running now, from now (nil clears it): for a host
    /// that runs several pieces of user code in one call into Lua, each with its own limit
    /// (the test runner). Inside `withDeadline`, which clears it on the way out.
    public func setDeadline(_ seconds: Double?) {
        if let seconds { lua.setDeadline(max(0, seconds)) } else { lua.clearDeadline() }
    }
}

extension Engine {
    /// Call in a child forked from this process after resetting its signal actions: the time
    /// limit installs its alarm handler again there.
    public static func processForked() { ckwatchdog_forked() }

    /// Call after putting signal actions back that a script's C code may have changed: the time
    /// limit installs its alarm handler (and unblocks SIGALRM) again at the next deadline.
    public static func signalActionsRestored() { ckwatchdog_forked() }

    /// Call in a `--jobs` worker started by the runner `parent`: it is killed when the runner
    /// ends, so no worker outlives the run. False when the runner has ended already.
    public static func endWithParent(_ parent: Int32) -> Bool { ckforked_end_with_parent(parent) == 0 }

    /// The time limit of the finalizers that run when the state closes (the configured
    /// `timeoutSeconds` unless set; nil: none). Lua runs finalizers with hooks off: one that
    /// never returns ends the process with `[timeout]` instead of holding it forever.
    public func limitClosing(to seconds: Double?) {
        ckstate_set_close_limit(lua.L, Configuration.limit(seconds).flatMap { $0 > 0 ? $0 : nil } ?? 0)
    }
}
