import CKCore

public enum LuaVersion {
    public static let string = "Lua 5.4"
}

/// The Lua-facing engine: one Lua state, the core runtime, and the `ck` module binding them.
/// Not actor-isolated: it sits on every Lua → Swift call.
public final class Engine {
    public struct Configuration: Sendable {
        public var sandbox: Bool
        public var timeoutSeconds: Double?
        public var memoryLimitBytes: Int
        /// Small blocks from pools freed with the state: for short-lived states (a test file's).
        public var pooledMemory: Bool
        /// Keeps the standard library as it was before any script ran (`hostPristineLibrary`,
        /// for the REPL's own Lua). Off only where no REPL can follow (`ckrun -e CODE`): the
        /// copy is 0.19M instructions, 10% of start-up.
        public var keepsPristineLibrary = true

        /// A timeout too long to arm a timer with (inf, 1e300: more than a century) is no limit.
        public init(sandbox: Bool = false, timeoutSeconds: Double? = nil, memoryLimitBytes: Int = 0, pooledMemory: Bool = false) {
            self.sandbox = sandbox
            self.timeoutSeconds = Self.limit(timeoutSeconds)
            self.memoryLimitBytes = memoryLimitBytes
            self.pooledMemory = pooledMemory
        }

        public init(sandbox: Bool = false, timeoutSeconds: Double? = nil, memoryLimitMegabytes: Int?) {
            self.init(sandbox: sandbox, timeoutSeconds: timeoutSeconds,
                      memoryLimitBytes: Self.bytes(megabytes: memoryLimitMegabytes))
        }

        static let longestTimeout = 100.0 * 365 * 24 * 3600

        /// `seconds` as a time limit: nil when too long to arm a timer with.
        static func limit(_ seconds: Double?) -> Double? { seconds.flatMap { $0 < longestTimeout ? $0 : nil } }

        /// Megabytes as bytes; a limit past what Int holds is no limit (0), never an overflow trap.
        public static func bytes(megabytes: Int?) -> Int {
            guard let megabytes, megabytes > 0 else { return 0 }
            let (bytes, overflow) = megabytes.multipliedReportingOverflow(by: 1024 * 1024)
            return overflow ? 0 : bytes
        }
    }

    let lua: LuaState
    public let configuration: Configuration
    public let runtime = Runtime()
    let objects = ObjectRegistry()
    let refs: RefStore
    /// Who owns which script values, and where new references go (Ownership.swift).
    let ownership: Ownership
    /// Values between the Lua stack and the core, and calls into Lua (Values.swift).
    let values: Values
    /// The thread whose Swift function is running: nested calls into Lua use its stack. C keeps
    /// it (set and restored around every Swift function and protected call), so no unwind can
    /// leave it pointing at a finished coroutine.
    var runningThread: OpaquePointer { lua.currentThread.pointee.unsafelyUnwrapped }
    /// Registry refs of `ck.config.onWarning` and `onTrace`, when set from Lua.
    var warningHandler: LuaRef?
    var traceHandler: LuaRef?
    /// Where a warning goes when the script set no `ck.config.onWarning`: standard error, after
    /// `noted` (a live view's output pane learns which of its lines are warnings).
    public var warningWritten: ((String) -> Void)?
    /// Figures of the front end that draws the app (the live view's draws), added to `ck.stats()`.
    public var frontEndFigures: (() -> [(String, Int)])?
    /// Where a warning goes instead of standard error when the script set no
    /// `ck.config.onWarning` (a library runtime's `Configuration.onWarning`).
    public var warningSink: ((String) -> Void)?
    var scriptTables: TablesAdapter!
    /// Cached send resolutions for the C `send` method of actions.
    var sendPlans: SendPlans!
    var defaultWarning: Int32 = 0
    var traceTracer: Tracer?
    /// Set while `withDeadline` runs its body with a deadline, and while it watches for Ctrl-C.
    var hasDeadline = false
    /// When the deadline `withDeadline` set passes (`Engine.ownTurn` pauses it).
    var deadlineEnd: ContinuousClock.Instant?
    var isWatchingInterrupts = false
    /// Whether turns use the process's one timer and Ctrl-C handler (`ckwatchdog.c`: one running
    /// state per process): a library runtime called while another's call holds them does not.
    public private(set) var usesProcessSignals = true
    public func useProcessSignals(_ uses: Bool) { usesProcessSignals = uses }
    /// Whether the timers a turn fires (`ck.advance`, `AppRunner.fireTimers`) run under that
    /// turn's deadline and Ctrl-C, not each under a whole limit of its own (`ownTurn`): a library
    /// call's timeout counts from the call's start, however many timers it fires (attack embed 11:
    /// `advance(by: 1e9)` with a re-arming timer ran for hours). The command line's stay its own.
    public var timersShareTheCallsLimit = false
    /// Set while a turn runs (`Engine.turn`).
    var isInTurn = false
    /// Set while `deinit` closes the Lua state: Swift functions then refuse (`[deadObject]`).
    var isClosing = false
    /// Warnings given once per engine (misspelled names, unknown props of built-ins).
    var warnedOnce: Set<String> = []
    /// The host `ck.run` made (the app runner's `app`); the engine roots its script values.
    public internal(set) var appHostObject: Host? {
        didSet {
            if oldValue !== appHostObject, let old = oldValue { ownership.arena(of: old)?.roots -= 1 }
            if oldValue !== appHostObject, let new = appHostObject { ownership.arena(of: new)?.roots += 1 }
        }
    }
    /// Set while the app file runs again for `.reload` / `--watch`: `ck.run` then reloads the
    /// running app's host instead of making a second one (see AppReload.swift).
    var isReloadingApp = false
    /// Set when `ck.run` handed the running app its new provider during a reload.
    var reloadRanApp = false
    /// Why the last file run by the app rule was not an app (`AppRunner.host(returnedAt:)`).
    var notAnAppBecause: String?
    /// The error the app's first mount raised (a callback's), printed before the run's front
    /// end started: the live view's status line shows it as the last error.
    public internal(set) var appStartupError: String?
    /// The last handler or render error the runtime re-raised into Lua, with its own traceback
    /// (see `restoringInnerTraceback`).
    var lastScriptFailure: ScriptFailure?
    /// Component classes defined so far: the app rule asks whether a script defined one.
    var componentClassesDefined = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        lua = LuaState(memoryLimitBytes: configuration.memoryLimitBytes, pooledMemory: configuration.pooledMemory)
        refs = RefStore(L: lua.L)
        refs.currentThread = lua.currentThread
        ownership = Ownership(lua: lua, refs: refs, objects: objects, runtime: runtime)
        values = Values(ownership: ownership)
        lua.owner = self
        objects.setUp(lua.L, refs: refs)
        ownership.setUp(self)
        values.setUpPropsViews()
        scriptTables = TablesAdapter(values: values)
        runtime.tables = scriptTables
        runtime.tableComparer = scriptTables
        runtime.onWarning = { [unowned self] in self.warn($0) }
        runtime.currentLocation = { [unowned self] in self.currentScriptLocation() }
        ModuleBinding.open(in: self)
        // Warnings while they are on (`warn("@on")`, `-W`): a finalizer's error goes to
        // `ck.config.onWarning` as `[finalizerError]` when a handler is set; C prints the rest
        // as lua.c does.
        lua.onWarning = { [unowned(unsafe) self] text, isFinalizerError in
            guard isFinalizerError, self.warningHandler != nil else { return false }
            self.runtime.warn(.finalizerError, "\(text); finalizers should not raise")
            return true
        }
        if configuration.sandbox { Sandbox.apply(to: lua) }
        if configuration.keepsPristineLibrary { PristineLibrary.take(in: lua) }
        installWorkLimits()
        limitClosing(to: configuration.timeoutSeconds)
    }

    deinit {
        // Finalizers run while this object is still whole; released refs are just forgotten,
        // and Lua's warnings no longer reach it.
        lua.owner = nil
        isClosing = true
        refs.L = nil
        refs.currentThread = nil
        lua.close()
    }

    /// Sets the global `arg` the way `lua` does: the script at 0, the interpreter below it.
    public func setArguments(script: String, arguments: [String], interpreter: String) {
        let L = lua.L
        LuaStack(L).newTable(array: arguments.count, fields: 2)
        lua.push(path: interpreter)
        LuaStack(L).set(-1, into: -2)
        lua.push(path: script)
        LuaStack(L).set(0, into: -2)
        for (i, a) in arguments.enumerated() {
            lua.push(path: a)
            LuaStack(L).set(i + 1, into: -2)
        }
        lua.setGlobal("arg")
    }

    /// Runs a chunk with `...` bound to `arguments`, under the configured time limit.
    public func runChunk(_ source: LuaSource, name: String, arguments: [String] = []) throws(LuaError) {
        _ = try runChunk(source, name: name, arguments: arguments, results: 0)
    }

    /// Runs a chunk and leaves `results` values on the stack (LUA_MULTRET = -1: all of them);
    /// returns how many it left.
    public func runChunk(_ source: LuaSource, name: String, arguments: [String] = [], results: Int32) throws(LuaError) -> Int32 {
        let base = lua.top
        try lua.load(source, name: name)
        for a in arguments { lua.push(a) }
        forgetInnerTraceback()
        do {
            try withLimits { () throws(LuaError) in try lua.call(arguments: Int32(arguments.count), results: results) }
        } catch {
            throw restoringInnerTraceback(error)
        }
        return lua.top - base
    }

    /// Runs `body` under the turns' deadline, if any.
    public func withLimits<T>(_ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        try withDeadline(turnTimeoutSeconds, body)
    }

    /// Each turn's time limit: the configured one, or one an interactive run sets once its app
    /// started (`ckrun app.lua --timeout 1`: the option followed the script).
    public lazy var turnTimeoutSeconds: Double? = configuration.timeoutSeconds

    /// Runs `body` with Lua code stopped by `[timeout]` after `seconds` (nil: no limit), and
    /// Ctrl-C turned into `[interrupted]` as lua.c does (a second Ctrl-C ends the process).
    /// Nested calls keep the outermost deadline (an app's chunk, provider, mount and loop share one).
    public func withDeadline<T>(_ seconds: Double?, _ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        guard usesProcessSignals else { return try body() }
        let seconds = Configuration.limit(seconds)
        let setsDeadline = seconds != nil && !hasDeadline
        let watches = !isWatchingInterrupts
        var replacedAsLua = false
        if watches {
            isWatchingInterrupts = true
            replacedAsLua = lua.watchInterrupts()
        }
        if setsDeadline, let seconds {
            hasDeadline = true
            deadlineEnd = .now + .seconds(seconds)
            lua.setDeadline(seconds)
        }
        defer {
            if setsDeadline {
                lua.clearDeadline()
                hasDeadline = false
            }
            if watches {
                lua.unwatchInterrupts(asLua: replacedAsLua)
                isWatchingInterrupts = false
            }
        }
        return try body()
    }

    /// Async-signal-safe: the running chunk stops at its next instruction check with `[interrupted]`.
    public func interrupt() { lua.interrupt() }

    // MARK: The bridge's concerns, each a type of its own over this engine

    /// What shows values to people (dumps, the REPL, the tree's JSON).
    var inspection: Inspection { Inspection(engine: self) }
    /// Component and controller classes: definitions, class fields, `Class(props)`.
    var classes: ClassBridge { ClassBridge(engine: self) }
    /// Hosts: made from a provider and options, their responders and views.
    var hosts: HostBridge { HostBridge(engine: self) }
    /// Swift functions for Lua: the bindings' tables of named functions, bound types' metatables.
    var functions: SwiftFunctions { SwiftFunctions(engine: self) }
    /// The command line's typed API: load chunks, call functions, read fields, Swift values in and out.
    public var tools: ToolCalls { ToolCalls(engine: self) }
    /// What `ckrun test` asks of the runtime beyond the `ck` module, and the runner's C functions.
    public var testing: TestSupport { TestSupport(engine: self) }
    /// `require` of modules beside the script: the searcher, and forgetting what it loaded.
    public var searcher: SiblingSearcher { SiblingSearcher(engine: self) }
    /// Running an app: the app rule, `.reload`, the timers the app runner fires.
    public var app: AppRunner { AppRunner(engine: self) }

    // MARK: Diagnostics for tests and benchmarks

    /// Registry references held by the core, and live handles held by Lua.
    public var liveReferences: Int { refs.live }
    public var liveHandles: Int { objects.liveHandles }

    func warn(_ message: String) {
        guard let handler = warningHandler else {
            if let warningSink { return warningSink(message) }
            warningWritten?(message)
            ProcessOutput.err(message + "\n")
            return
        }
        do { _ = try values.call(handler, [.string(message)]) } catch {
            // A warning never raises into the code that warned (a build, a finalizer).
            ProcessOutput.err(ConfigBinding.callbackFailure(error, "ck.config.onWarning", given: "the warning below, which is written here instead") + "\n" + message + "\n")
        }
    }

}
