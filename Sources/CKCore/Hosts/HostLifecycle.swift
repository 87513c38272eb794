/// A host's mounting, appearance and end. Each public operation checks, then either is
/// deferred to the end of the host's running pass (`HostPasses.swift`) or runs as a pass.
extension Host {
    public func mount() throws {
        try checkAlive("mount")
        try checkNotRendering("mount")
        try runOrDeferDuringPass { try self.mountTree() }
    }

    public func unmount() throws {
        try checkAlive("unmount")
        try checkNotRendering("unmount")
        try runOrDeferDuringPass { try self.unmountTree() }
    }

    /// `componentTreeWillAppear` to every live controller of the tree, mounted or not (as
    /// ComponentKit announces appearance to its scope root's controllers), each once until it
    /// is told the tree disappeared: the two callbacks pair.
    public func appear() throws {
        try checkAlive("appear")
        try runOrDeferDuringPass { try self.announce(appearing: true) }
    }

    /// `componentTreeDidDisappear` to every live controller that was told the tree appeared.
    public func disappear() throws {
        try checkAlive("disappear")
        try runOrDeferDuringPass { try self.announce(appearing: false) }
    }

    /// Disappears, unmounts, invalidates every controller and ends the host. Called from a
    /// callback of this host's pass, it runs when the pass ends, so that pass runs whole; every
    /// later call of the host raises `[hostDestroyed]` at once (a second `destroy()` does nothing).
    public func destroy() throws {
        guard !isDestroyed, !isDestroying else { return }
        try checkNotRendering("destroy")
        isDestroying = true
        link.wasDestroyed = true
        try runOrDeferDuringPass { try self.tearDown() }
    }

    private func mountTree() throws {
        guard !isMounted else { return }
        try runtime.perform { try runtime.changingTree { try pass {
            isMounted = true
            runtime.register(self)
            guard let root else { return }
            var mounter = Mounter(host: self)
            mounter.mount(root, previous: nil, in: hostingView)
            try mounter.finish()
        } } }
    }

    private func unmountTree() throws {
        guard isMounted else { return }
        try runtime.perform { try runtime.changingTree { try pass {
            isMounted = false
            if !hasPendingUpdates { runtime.unregister(self) }
            guard let root else { return }
            var mounter = Mounter(host: self)
            mounter.unmount(root)
            try mounter.finish()
        } } }
    }

    private func announce(appearing: Bool) throws {
        let name = appearing ? "componentTreeWillAppear" : "componentTreeDidDisappear"
        try runtime.perform { try pass {
            isAppeared = appearing
            var firstError: Error?
            for k in liveControllers() where k.hasAppeared != appearing {
                k.hasAppeared = appearing
                do { try Lifecycle.call(k, name) } catch { firstError = firstError ?? error }
            }
            if let firstError { throw firstError }
        } }
    }

    /// The controllers of the current tree that are not invalidated, in tree order.
    private func liveControllers() -> [Controller] {
        allComponents().compactMap { c in
            guard let k = c.scope?.controller, k.component === c, !k.isInvalidated else { return nil }
            return k
        }
    }

    /// The destroy itself, one pass: the appeared controllers are told the tree disappeared,
    /// the tree unmounts whole, then every controller is invalidated.
    func tearDown() throws {
        isDestroying = true
        try runtime.perform { try runtime.changingTree { try pass {
            var firstError: Error?
            func keep(_ body: () throws -> Void) { do { try body() } catch { firstError = firstError ?? error } }
            // Every controller told the tree appeared was told while the host was appeared.
            if isAppeared { keep { try announce(appearing: false) } }
            keep { try unmountTree() }
            let scopes = rootScope.subtree
            for scope in scopes { scope.isLive = false }
            // In tree order, as they unmounted; only the scopes with a controller call back.
            for scope in Scope.controllersInTreeOrder(scopes, below: root.map { [$0] } ?? [], skip: { _ in false }) {
                if let k = scope.controller { Lifecycle.invalidate(k, keep: keep) }
            }
            for scope in scopes { scope.retire() }
            for c in allComponents() { runtime.ended(c) }
            release()
            runtime.ended(hostingView)
            runtime.ended(self)
            if let firstError { throw firstError }
        } } }
    }

    /// What the host held of the script goes: props, model and provider can refer back to the
    /// host (`Item{host = h}`), a loop through Lua's registry that no collector sees.
    private func release() {
        dirtyScopes.removeAll()
        deferredOperations.removeAll()
        root = nil
        model = .nil
        provider = { _ in nil }
        // The responders' tables (a Swift program's handlers among them) go with the host.
        releaseResponders()
        isDestroyed = true
        runtime.unregister(self)
    }
}
