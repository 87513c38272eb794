/// `ck.host(provider, opts)`: owns one scope root, builds the provider's tree and keeps it.
public final class Host: RuntimeObject {
    static let maxBuildsPerFlush = 100
    /// Builds of this host in the flush loop numbered `flushCounted` (`Runtime.countBuild`).
    var flushBuilds = 0
    var flushCounted = 0

    public unowned let runtime: Runtime
    /// While `reload` builds: a failure is named as the reload's (`[buildFailed]`).
    var isReloading = false
    public var provider: (Value) throws -> Component?
    /// Where the provider function was defined (`app.lua:3`), for messages about what it made.
    public var providerDefinition: String?
    public internal(set) var model: Value
    public private(set) var rootScope: Scope!
    public internal(set) var root: Component?
    public let hostingView: View
    /// A tracked host's are in `runtime.hostResponders`, kept here whatever changes them.
    public private(set) var responders: [ScriptResponder] {
        willSet { if isTracked { runtime.hostResponders.remove(self) } }
        didSet { if isTracked { runtime.hostResponders.add(self) } }
    }
    public internal(set) var generation = 0
    public internal(set) var isMounted = false
    public internal(set) var isDestroyed = false
    public internal(set) var isAppeared = false
    var dirtyScopes: [Scope] = []
    /// The order this host was made in among its runtime's (`Runtime.allHosts`).
    let serial: Int
    /// Scopes made so far for this host (`Scope.serial`).
    private var scopesMade = 0
    var hasSyncUpdate = false
    var needsFullBuild = false
    /// Where this host is in `runtime.hostsWithWork`, nil when not listed (`HostsWithWork.swift`).
    var indexWithWork: Int?
    /// `runtime.definitionsVersion` when this host's builds last looked, and the first generation
    /// built after it changed: older instances are not kept (`BuildContext.mayKeep`).
    var definitionsSeen = -1
    var keepableFrom = 0
    /// In a pass (`HostPasses.swift`): host operations its callbacks call are deferred to its end.
    var isBusy = false
    var isRunningDeferred = false
    var deferredOperations: [() throws -> Void] = []
    /// `destroy()` was called: every later call raises `[hostDestroyed]` (a deferred destroy
    /// has not run yet).
    var isDestroying = false
    /// In the runtime's `hosts` (`Runtime.register`): every sync update registers its host, and
    /// asking this bit spares it a hash of the dictionary each time.
    var isTracked = false
    /// The runtime's call state, held strongly: `deinit` may run after the runtime's.
    private let calls: CallStateStorage
    /// The one weak reference to this host that its components and scopes share.
    let link = HostLink()
    /// Where the bridge keeps the script values of this host and its tree (set before the first build).
    public let scriptArena: ScriptArena?

    /// Builds generation 1 at once (not mounted).
    /// `providerDefinition`: known before the first build, whose messages name it.
    public init(runtime: Runtime, model: Value = .nil, responders: [ScriptResponder] = [],
                scriptArena: ScriptArena? = nil, providerDefinition: String? = nil,
                provider: @escaping (Value) throws -> Component?) throws {
        self.runtime = runtime
        self.providerDefinition = providerDefinition
        serial = runtime.nextHostSerial()
        self.scriptArena = scriptArena
        calls = runtime.callStateStorage
        self.provider = provider
        self.model = model
        self.responders = responders
        hostingView = View(spec: ViewSpec(viewClass: "HostingView"))
        super.init()
        link.host = self
        hostingView.hostingHost = self
        for (a, b) in zip(responders, responders.dropFirst()) { a.next = b }
        rootScope = Scope(identity: ScopeIdentity(className: "(root)", identifier: .nil, key: .nil), ordinal: 0, parent: nil, host: self)
        do { try runtime.perform { try Builder(host: self).run(full: true) } } catch {
            // The tree was built but a controller's init or didInit raised: no host is returned,
            // so none is left behind, and every controller made gets its invalidateController.
            if generation > 0 { try? tearDown() }
            throw error
        }
        runtime.noteMade(self)
    }

    public override var typeName: String { "Host" }
    /// While the runtime tracks it (mounted, or with updates pending), until destroyed: an
    /// untracked host lives as long as the script holds it (its components do not keep it).
    public override var keepsItsHandle: Bool { !isDestroyed && !isDestroying && runtime.isTracking(self) }

    /// Lets go of the responders when the host is destroyed (nothing asks them afterwards).
    func releaseResponders() {
        responders = []
    }

    func nextScopeSerial() -> Int {
        scopesMade += 1
        return scopesMade
    }

    /// A host dropped without `destroy()`: its controllers are marked invalidated (no callback:
    /// no script runs from a deinit) and the tree and its views let go of what could form cycles.
    deinit {
        link.host = nil
        calls.invalidatePlans()
        // Mounted views and their components hold each other until an unmount: a host dropped
        // mounted (its runtime closed with it) would otherwise leave its whole view tree behind.
        var views = hostingView.subviews
        while let view = views.popLast() {
            views.append(contentsOf: view.subviews)
            view.component?.view = nil
            view.component = nil
        }
        guard let rootScope else { return }
        for scope in rootScope.subtree {
            scope.controller?.isInvalidated = true
            scope.retire()
        }
    }

    var hasPendingUpdates: Bool { !dirtyScopes.isEmpty || needsFullBuild }

    public func checkAlive(_ what: String) throws {
        if isDestroyed || isDestroying {
            throw RuntimeError(.hostDestroyed, "\(what) on a destroyed host; \(Remedy.makeANewOne)")
        }
    }

    /// A render only describes a tree (SPEC §3): a call that builds or changes one from inside a
    /// render would build into, or tear down, the generation being made.
    func checkNotRendering(_ what: String) throws {
        if runtime.isRendering {
            throw runtime.updateDuringRender("host:\(what)()")
        }
    }

    // MARK: Updates

    /// Queues a state update for `scope` (SPEC §3).
    public func enqueue(_ update: StateUpdate, for scope: Scope, synchronous: Bool) throws {
        try checkAlive("updateState")
        // Read once: each read of the unowned field is a checked strong retain that takes the
        // slow path (~90 instructions), and a sync update is a hot path.
        let runtime = self.runtime
        if runtime.isRendering {
            throw runtime.updateDuringRender("updateState of \(scope.shownPath)")
        }
        guard scope.isLive else { return }   // the scope left the tree: dropped
        try runtime.perform {
            if scope.pendingUpdates.isEmpty { dirtyScopes.append(scope) }
            scope.pendingUpdates.append(QueuedUpdate(update: update, call: runtime.currentCall))
            runtime.noteUpdateOrigin()
            runtime.limits.hold(StateUpdate.heldBytes)
            runtime.register(self)
            runtime.noteWork(self)
            if synchronous {
                hasSyncUpdate = true
                runtime.syncRequested = true
            }
        }
    }

    /// `host:update(model)`: re-runs the provider and every render below it.
    public func update(model: Value) throws {
        try checkAlive("update")
        try checkNotRendering(isReloading ? "reload" : "update")
        try runOrDeferDuringPass { try self.rebuild(model: model) }
    }

    /// A full build for `model`; a failed one keeps the previous model (SPEC §3).
    private func rebuild(model: Value) throws {
        let previous = self.model, built = generation
        self.model = model
        do { try runtime.perform { try Builder(host: self).run(full: true) } } catch {
            if generation == built { self.model = previous }   // SPEC §3: a failed update keeps the model
            throw error
        }
    }

    /// Replaces the provider (the REPL's `.reload`) and rebuilds, keeping scopes by identity.
    /// A reload that fails keeps the previous provider, responders and model.
    public func reload(provider: @escaping (Value) throws -> Component?) throws {
        try reload(provider: provider, responders: responders, model: model)
    }

    /// `ck.run` while an app reloads: the same host takes the file's new provider, host
    /// responders and model, and rebuilds keeping scopes (state, controllers) by identity.
    public func reload(provider: @escaping (Value) throws -> Component?, responders: [ScriptResponder], model: Value) throws {
        try checkAlive("reload")
        try checkNotRendering("reload")
        try runOrDeferDuringPass { try self.replace(provider: provider, responders: responders, model: model) }
    }

    private func replace(provider: @escaping (Value) throws -> Component?, responders: [ScriptResponder], model: Value) throws {
        let saved = (self.provider, self.responders)
        self.provider = provider
        setResponders(responders)
        isReloading = true
        defer { isReloading = false }
        do { try rebuild(model: model) } catch {
            self.provider = saved.0
            setResponders(saved.1)
            throw error
        }
    }

    private func setResponders(_ list: [ScriptResponder]) {
        responders = list
        for (a, b) in zip(list, list.dropFirst()) { a.next = b }
        list.last?.next = nil
        runtime.invalidateSendPlans()
    }

    /// Builds what is pending; a host that is not mounted stops being tracked once nothing is
    /// (the runtime held every unmounted host that ever had an update, and with it its script values).
    /// Nothing pending builds nothing: a `host:update(model)` that folded a queued sync update
    /// left its request behind, which made a generation with no change (SPEC §3: one build).
    func buildPendingUpdates() throws {
        guard !isDestroyed else { return }
        defer { if !isMounted && !hasPendingUpdates { runtime.unregister(self) } }
        guard hasPendingUpdates else { return }
        try Builder(host: self).run(full: needsFullBuild)
    }

    /// `host:flush()`: builds this host's pending updates now.
    public func flush() throws {
        try checkAlive("flush")
        try checkNotRendering("flush")
        try runOrDeferDuringPass { try self.flushNow() }
    }

    private func flushNow() throws {
        try runtime.perform {
            let loop = runtime.beginFlushLoop()
            defer { runtime.stopRecordingUpdates() }
            while hasPendingUpdates {
                try runtime.countBuild(of: self, inFlush: loop)
                try buildPendingUpdates()
            }
        }
    }

    func updateLoopError() -> RuntimeError {
        let scopes = dirtyScopes.prefix(3).map(\.path).joined(separator: ", ")
        dirtyScopes.forEach { $0.dropPendingUpdates(runtime.limits) }
        dirtyScopes.removeAll()
        hasSyncUpdate = false
        let origin = runtime.takeUpdateOrigin()
        return RuntimeError(.updateLoop, "state updates re-triggered builds \(Host.maxBuildsPerFlush) times in a row (still updating: \(scopes)\(origin.text)); the pending updates were dropped. Update state only when the value changes", at: origin.location)
    }

    // MARK: Inspection

    /// Every component of the current tree, depth-first, parents first.
    public func allComponents() -> [Component] {
        var out: [Component] = []
        var stack: [Component] = root.map { [$0] } ?? []
        while let c = stack.popLast() {
            out.append(c)
            stack.append(contentsOf: c.children.reversed())
        }
        return out
    }
}

/// The one link to a host from what may outlive it (its components, scopes, hosting view's
/// spec, a test's list), held strongly by each: the host clears it first thing as it goes
/// (`deinit`), as a `BackLink`'s target does. Not weak: a weak reference gives the host a side
/// table and sends every retain of it down the slow path (~70 instructions, 2 a sync update).
final class HostLink {
    unowned(unsafe) var host: Host?
    /// `destroy()` was called: once the host is freed its components still tell a destroyed host
    /// from one the collector took (attack atk-mem 09).
    var wasDestroyed = false
}
