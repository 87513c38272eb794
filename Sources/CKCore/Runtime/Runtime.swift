/// The core: class registries, configuration, hosts, update batching and the run loop.
/// One per Lua state; used from one thread.
public final class Runtime {
    public enum UnhandledPolicy: String { case error, warn, ignore }

    public private(set) var componentClasses: [String: ComponentClass] = [:]
    public private(set) var controllerClasses: [String: ControllerClass] = [:]
    public var types = TypeSystem()
    public var controls = ControlClasses()
    public var unhandledAction: UnhandledPolicy = .error
    /// `ck.config.maxDepth`: how deep a build may render (`TreeDepth`).
    public var maxDepth = TreeDepth.defaultLimit
    /// Receives `[id] …` warnings; prints to stderr unless replaced.
    public var onWarning: (String) -> Void = { writeStandardError($0 + "\n") }
    /// The handler whose error the last failed send passed on (`[actionFailed]`).
    public internal(set) var lastHandlerFailure: HandlerFailure?
    /// Set by a view's gesture (`Host.fire`) for the one send it makes next, taken as that send
    /// begins: an unhandled send from a view names the code that gave the view its action, an
    /// explicit `action:send` the script's line that sent (atk-new 14).
    var nextSendIsGesture = false
    /// Set while the app's file runs again (`.reload`, `--watch`): a name's owner cannot change then.
    public var isReloadingApp = false
    /// The script side's table access (strong: it holds its engine unowned, so no cycle).
    public var tables: ScriptTables?
    /// Compares props for pure components (usually `tables` itself). Set, not cast from
    /// `tables`: `as?` a protocol scans every conformance record in the binary (≈500
    /// instructions a compare; 0.21M at the first, which every start-up paid).
    public var tableComparer: ScriptTableComparing?
    public let loop = RunLoop()
    /// Ticked by Swift loops whose size a script controls (see `WorkLimits`).
    public let limits = WorkLimits()
    public var tracer: Tracer? {
        didSet { callState.pointee.tracing = tracer == nil ? 0 : 1 }
    }
    /// The thread using this runtime now (the one that made it, until a library call from
    /// another takes it over: `adopt`); sends from elsewhere are refused.
    public private(set) var ownerThread = ThreadIdentity.current
    /// Call depth, the sync flag and the plan epoch, where a bridge's C code can reach them.
    public let callState: UnsafeMutablePointer<CallState>

    /// Hosts with pending updates or mounted trees, flushed by `ck.flush()`.
    var hosts: [ObjectIdentifier: Host] = [:]
    /// The tracked hosts that may have work (`HostsWithWork.swift`).
    var hostsWithWork: [Host] = []
    /// The tracked hosts' responders by table (`HostResponderIndex.swift`).
    var hostResponders = HostResponderIndex()
    /// Hosts made so far (`Host.serial`).
    private var hostsMade = 0
    var depth: Int {
        get { callState.pointee.depth }
        set { callState.pointee.depth = newValue }
    }
    /// Set when a sync update is queued, so a send's exit checks hosts only then.
    var syncRequested: Bool {
        get { callState.pointee.syncRequested != 0 }
        set { callState.pointee.syncRequested = newValue ? 1 : 0 }
    }
    var build: BuildContext?
    /// Set by `keepRecorded` when only the props kept the instance from being kept; read and
    /// cleared by the `reusableInstance` that follows at once, which then does not compare again.
    var propsDifferFrom: Component?
    var renderDepth: Int {
        get { callState.pointee.renderDepth }
        set { callState.pointee.renderDepth = newValue }
    }
    var lastComponentID = 0
    var updateLoop = UpdateLoopWatch()
    /// Flush loops begun (`beginFlushLoop`), so a host's build count starts again in each.
    var flushLoops = 0
    var lastBuildID: Int32 = 0
    /// Numbers each mounter, so a view can tell whether the current one has touched it, and
    /// each of its depth-first walks.
    var lastMountPass: Int32 = 0
    var lastMountWalk: Int32 = 0
    /// Views moved among their superview's subviews by keyed reorders (SPEC §5), for
    /// `ck.stats()`: the fewest that put the subviews in their components' order.
    public internal(set) var viewMoves = 0
    /// The test under way in `ckrun test` (`beginTest`/`endTest`), nil otherwise.
    var isolation: TestIsolation?

    let callStateStorage = CallStateStorage()

    public init() {
        callState = callStateStorage.pointer
        selectors = SelectorTable(calls: callStateStorage, limits: limits)
        callState.pointee.ownerThread = Int(bitPattern: ownerThread.raw)
    }

    /// Hands the runtime to `thread`, which calls it from now on (no call may be under way).
    public func adopt(_ thread: ThreadIdentity) {
        ownerThread = thread
        callState.pointee.ownerThread = Int(bitPattern: thread.raw)
    }

    /// Makes every cached send plan stale: the chain, a scope's component or a class's
    /// methods may have changed.
    public func invalidateSendPlans() { callStateStorage.invalidatePlans() }

    /// Runs a build, mount, unmount or host end (see `CallState.changing`).
    func changingTree<T>(_ body: () throws -> T) rethrows -> T { try callStateStorage.changingTree(body) }

    // MARK: Classes

    public let selectors: SelectorTable

    public func define(_ cls: ComponentClass) {
        cls.methodTable.attach(selectors)
        componentClasses[cls.name] = cls
        definitionsChanged()
        invalidateSendPlans()
    }

    public func define(_ cls: ControllerClass) {
        cls.methodTable.attach(selectors)
        controllerClasses[cls.name] = cls
        controllerClassesVersion += 1
        definitionsChanged()
        invalidateSendPlans()
    }

    /// Changes whenever a class is defined or a special key (`Class.view = f`) reconfigures one:
    /// an instance built before then is never kept (`BuildContext.mayKeep`).
    public private(set) var definitionsVersion = 0
    public func definitionsChanged() { definitionsVersion &+= 1 }

    /// Changes whenever a controller class is defined: what `controllerClass(for:)` found may change.
    private var controllerClassesVersion = 0
    public func componentClass(named name: String) -> ComponentClass? { componentClasses[name] }
    public func controllerClass(named name: String) -> ControllerClass? { controllerClasses[name] }
    public func isClassName(_ name: String) -> Bool {
        componentClasses[name] != nil || controllerClasses[name] != nil || name == "Event" || name == "View"
    }

    /// The controller class a component class uses, if any.
    func controllerClass(for cls: ComponentClass) throws -> ControllerClass? {
        if let found = cls.resolvedController, found.version == controllerClassesVersion { return found.controller }
        let controller = try lookUpControllerClass(for: cls)
        cls.resolvedController = ResolvedController(version: controllerClassesVersion, controller: controller)
        return controller
    }

    private func lookUpControllerClass(for cls: ComponentClass) throws -> ControllerClass? {
        // A built-in has no scope, so no controller: `ButtonController` is the user's `Button`'s
        // (a class of that name of their own), never ck.Button's.
        if cls.builtin != nil { return nil }
        if let name = cls.controllerName {
            guard let c = controllerClasses[name] else {
                if componentClasses[name] != nil { throw componentNamedAsController(name, by: cls) }
                let advice = NearName.nearest(name, in: Array(controllerClasses.keys)).map { "did you mean \"\(Excerpt.text($0))\"? Fix the name, or define" }
                    ?? "define it with"
                throw RuntimeError(.unknownClass, "\(cls.shownName) names controller \"\(Excerpt.text(name))\", which is not defined; \(advice) "
                                   + "ck.controller(\"\(Excerpt.text(name))\", {...}) before the first build", at: cls.controllerNameSite)
            }
            return c
        }
        return controllerClasses[cls.name + "Controller"]
    }

    /// `controller = "List"` where List is a component class: a name means one type, so
    /// `ck.controller("List")` is refused; the advice names a controller the script can use
    /// (atk-new 06: it said to define "List" as a controller).
    private func componentNamedAsController(_ name: String, by cls: ComponentClass) -> RuntimeError {
        let own = name + "Controller"
        let advice = controllerClasses[own] != nil
            ? "did you mean \"\(Excerpt.text(own))\"? Name that controller"
            : "define a controller with a name of its own (ck.controller(\"\(Excerpt.text(own))\", {...})) and name that"
        return RuntimeError(.unknownClass, "\(cls.shownName) names controller \"\(Excerpt.text(name))\", which is a component class, not a controller; \(advice)", at: cls.controllerNameSite)
    }

    public func warn(_ id: Catalogue, _ detail: String) { onWarning(id.message(detail)) }

    /// Where the script is (`file:line` of the innermost script function running), for errors
    /// and warnings the core finds during a build; the script side sets it.
    public var currentLocation: () -> String? = { nil }

    /// A warning with the script's current `file:line` after the id.
    public func warnHere(_ id: Catalogue, _ detail: String) { onWarning(id.message(detail, at: currentLocation())) }

    /// What the running build runs (`the render of Root/List`), for errors found in it; nil
    /// outside a build.
    public var buildActivity: String? { build?.running.description }

    public var isRendering: Bool { renderDepth > 0 }
    /// `[updateDuringRender]` for `call` (`O:updateState`, `ck.flush()`), naming the render that
    /// is running, never the object the call was made on.
    public func updateDuringRender(_ call: String) -> RuntimeError {
        RuntimeError(.updateDuringRender, "\(call) called during \(buildActivity ?? "a render"); call it from handlers, controllers or timers")
    }
    public var isBuilding: Bool { build != nil }
    /// The host whose build is under way, if any.
    public var buildingHost: Host? { build?.host }
    /// `buildingHost?.scriptArena`, read without retaining the host (every reference a build
    /// makes asks: the props of each component, the attributes of each view).
    public var buildingArena: ScriptArena? { build?.host.scriptArena }

    // MARK: Batching

    /// Runs one runtime call. When the outermost call returns, sync updates are built; if it
    /// raises, they are kept for the next turn of the run loop (a yield drops them: `abandonCall`).
    public func perform<T>(_ body: () throws -> T) throws -> T {
        let call = enterCall()
        let result: T
        do { result = try body() } catch {
            abandonCall(call, after: error)
            throw error
        }
        try leaveCall(call)
        return result
    }

    /// Enters a runtime call; returns its number (a bridge's cached send does the same in C).
    public func enterCall() -> Int {
        depth += 1
        callState.pointee.entered += 1
        return callState.pointee.entered
    }

    /// Ends the call numbered `call`, entered by `enterCall` (or a bridge's cached send): the
    /// outermost call builds the sync updates queued during it.
    public func leaveCall(_ call: Int) throws {
        do {
            if depth == 1 { try buildSynchronousUpdates() }
        } catch {
            abandonCall(call, after: error)
            throw error
        }
        depth -= 1
    }

    /// Ends a call that raised `error`: its sync updates are kept for the next turn of the run
    /// loop, unless the error is one that rolls the call back (`CallRollback`).
    public func abandonCall(_ call: Int, after error: Error) {
        if CallRollback.rollsBack(error) { rollBack(callsFrom: call) }
        depth -= 1
        if depth == 0 { for host in listedHostsWithWork() { host.hasSyncUpdate = false } }
    }

    public var isInsideCall: Bool { depth > 0 }

    /// The number of the newest runtime call entered (what is queued now is stamped with it).
    public var currentCall: Int { callState.pointee.entered }

    /// Told when a host starts or stops being tracked (mounted, or with pending updates): the
    /// runtime then holds it, so a bridge keeps its script values rooted.
    public var onHostTracked: ((Host, Bool) -> Void)?

    /// Told after a build what its commit took out of the tree, parents first, once the build
    /// holds none of it: a bridge releases (sets to nil) what nothing else holds, and moves what
    /// lives on (held by a script's handle) out of the host's rooted values, so a replaced
    /// generation is garbage to the script's collector at once, however deep it is.
    public var onComponentsLeft: ((inout [Component?]) -> Void)?
    /// Told once when an object whose handle the bridge keeps (`RuntimeObject.handleIsKept`)
    /// stops living in the runtime (a scope retired, a controller invalidated, a leaf a build
    /// replaced, a host and its tree destroyed; other components a build replaced go through
    /// `onComponentsLeft`): its handle need no longer be kept.
    public var onObjectEnded: ((RuntimeObject) -> Void)?

    /// `object` ended (see `onObjectEnded`); a word only for one whose handle is kept.
    @inline(__always)
    func ended(_ object: RuntimeObject) {
        if object.handleIsKept { onObjectEnded?(object) }
    }
    /// The index of each of a built-in's children in the list the script gave it (`children =
    /// {a, false, b}`: `b` is 3, the second child placed), for messages; nil when not known.
    /// One walk of the list answers for every child (a walk per child was quadratic, issue 28).
    public var childEntryIndices: ((_ parent: Component) -> [ObjectIdentifier: Int]?)?
    /// Asked as a scope with a controller retires: whether the scope keeps its invalidated
    /// controller, so that `ck.controllerOf` of its instances answers it. A bridge says yes only
    /// when a handle of the scope, the controller or its last component is alive (it then lets
    /// go through `Scope.letGoOfRetiredControllerIfUnheld` when Lua collects the last of them)
    /// and the controller's own script values reach nothing that could hold them in a loop.
    public var keepsRetiredController: ((Scope, Controller) -> Bool)?
    /// What commits took out of the tree since the last hand-over (a buffer kept between builds).
    var leftTree: [Component?] = []

    func handOverLeftTree() {
        onComponentsLeft?(&leftTree)
        leftTree.removeAll(keepingCapacity: true)
    }

    func register(_ host: Host) {
        guard !host.isTracked else { return }
        host.isTracked = true
        hosts[ObjectIdentifier(host)] = host
        hostResponders.add(host)
        onHostTracked?(host, true)
        if host.mayHaveWork { noteWork(host) }
    }

    func isTracking(_ host: Host) -> Bool { host.isTracked }

    func unregister(_ host: Host) {
        guard host.isTracked else { return }
        hostResponders.remove(host)
        host.isTracked = false
        hosts[ObjectIdentifier(host)] = nil
        unlistWork(host)
        onHostTracked?(host, false)
    }

    private func buildSynchronousUpdates() throws {
        guard syncRequested else { return }
        syncRequested = false
        let loop = beginFlushLoop()
        defer { stopRecordingUpdates() }
        while let host = firstHost(where: { $0.hasSyncUpdate && !$0.isDestroyed }) {
            try countBuild(of: host, inFlush: loop)
            host.hasSyncUpdate = false
            try host.buildPendingUpdates()
        }
    }

    /// `ck.flush()`: builds every host's pending updates, then runs due timers, until idle.
    /// A host whose build fails does not stop the others; the first error is raised at the end.
    public func flush() throws {
        if isRendering {
            throw updateDuringRender("ck.flush()")
        }
        try perform {
            let loop = beginFlushLoop()
            var failed: Set<ObjectIdentifier> = []
            var firstError: Error?
            defer { stopRecordingUpdates() }
            // A host in a pass (ck.flush from its callback) builds when the outermost call returns.
            for host in listedHostsWithWork() where host.isBusy && host.hasPendingUpdates { host.buildAfterPass(full: false) }
            while let host = firstHost(where: { $0.hasPendingUpdates && !$0.isDestroyed && !$0.isBusy && !failed.contains(ObjectIdentifier($0)) }) {
                try countBuild(of: host, inFlush: loop)
                do { try host.buildPendingUpdates() } catch {
                    failed.insert(ObjectIdentifier(host))
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
        }
    }

    public var hasPendingUpdates: Bool { firstHost { $0.hasPendingUpdates && !$0.isDestroyed } != nil }

    func nextHostSerial() -> Int {
        hostsMade += 1
        return hostsMade
    }

    func nextComponentID() -> Int {
        lastComponentID += 1
        return lastComponentID
    }
}

/// Identifies the calling thread without Foundation.
public struct ThreadIdentity: Equatable, Sendable {
    let raw: UInt
    public static var current: ThreadIdentity { ThreadIdentity(raw: UInt(bitPattern: currentThreadID())) }
}

#if canImport(Glibc)
import Glibc
private func currentThreadID() -> Int { Int(bitPattern: UInt(pthread_self())) }
#elseif canImport(Darwin)
import Darwin
private func currentThreadID() -> Int { Int(bitPattern: pthread_self()) }
#endif

/// The default warning printer: standard error, without Foundation (the script side replaces it).
func writeStandardError(_ text: String) { ProcessOutput.err(text) }

extension Runtime {
    /// Hosts the runtime tracks (mounted, or with pending updates), in the order they were made.
    public var allHosts: [Host] { hosts.values.sorted { $0.serial < $1.serial } }
    /// How many hosts the runtime tracks (`allHosts.count`, without sorting them).
    public var trackedHostCount: Int { hosts.count }

    /// Fires timers due up to `time` (`ck.advance`; nil: until none is left, `ck.runUntilIdle`)
    /// in order, building updates after each; returns how many fired. A timer that keeps
    /// re-arming (`TimerRun`) raises `[timerLoop]` where it was set, left pending.
    public func runTimers(until time: Double?) throws -> Int {
        var fired = 0
        try flush()
        let stop = try loop.drain(until: time) { timer in
            try fire(timer)
            try flush()
            fired += 1
            return true
        }
        guard let stop else { return fired }
        let advice = stop.atOneInstant ? "give it a delay, or stop re-arming it (ck.cancel)"
            : "to run a repeating timer, move the clock a bounded time with ck.advance(SECONDS); otherwise stop re-arming it (ck.cancel)"
        throw RuntimeError(.timerLoop, stop.detail(now: loop.now) + advice, at: stop.timer.site.isEmpty ? nil : stop.timer.site)
    }

    /// Fires one timer in a runtime call; an error of its function says where the timer was set
    /// (`[timerFailed]`, then the error's own message), so a test or the REPL learns which
    /// `ck.after` it came from, not only the `ck.advance` that ran it.
    private func fire(_ timer: RunLoop.Timer) throws {
        do { try perform { try timer.fire() } } catch {
            guard error is ScriptFailure || error is RuntimeError else { throw error }
            let site = timer.site.isEmpty ? nil : timer.site
            throw ScriptErrors.wrapping(error) {
                Catalogue.timerFailed.message("a timer set here (ck.after) raised when ck.advance or ck.runUntilIdle fired it: " + $0, at: site)
            }
        }
    }

    /// Builds pending updates and fires every timer, until nothing is left (`runTimers(until: nil)`).
    public func runUntilIdle() throws -> Int { try runTimers(until: nil) }
}
