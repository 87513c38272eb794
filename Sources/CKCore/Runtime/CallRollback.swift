/// A runtime call broken by a coroutine yield leaves the runtime as it was before it (SPEC §6.3):
/// the state updates queued and the timers set since it began, by it and by the calls it made,
/// are dropped. Each of them carries the number of the call current when it was made
/// (`CallState.entered`, counted by `Runtime.enterCall` and by a bridge's cached send), so one
/// rule finds them all. A build rolls itself back (`Builder`); what the script did itself (its
/// tables, hosts it made, classes it defined) stays. Any other error keeps the call's updates,
/// as SPEC §6.3 asks of a handler that raises.
enum CallRollback {
    static func rollsBack(_ error: Error) -> Bool {
        (error as? RuntimeError)?.id == .yieldAcrossRuntime
    }
}

extension Runtime {
    /// Drops what the call numbered `call`, and every call entered after it, queued.
    func rollBack(callsFrom call: Int) {
        loop.cancelTimers(setFrom: call)
        for host in listedHostsWithWork() { host.dropUpdates(queuedFrom: call) }
    }
}

extension Host {
    func dropUpdates(queuedFrom call: Int) {
        for scope in dirtyScopes { scope.dropUpdates(queuedFrom: call, runtime.limits) }
        dirtyScopes.removeAll { $0.pendingUpdates.isEmpty }
        guard !hasPendingUpdates else { return }
        hasSyncUpdate = false
        if !isMounted { runtime.unregister(self) }
    }
}

extension Scope {
    /// A queue is in call order: the updates from `call` on are its tail.
    func dropUpdates(queuedFrom call: Int, _ limits: WorkLimits) {
        let kept = pendingUpdates.prefix { $0.call < call }.count
        limits.release((pendingUpdates.count - kept) * StateUpdate.heldBytes)
        pendingUpdates.removeSubrange(kept...)
    }
}
