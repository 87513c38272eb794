import CKCore
import CLua
import CLuaShims

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

        public init(sandbox: Bool = false, timeoutSeconds: Double? = nil, memoryLimitBytes: Int = 0) {
            self.sandbox = sandbox
            self.timeoutSeconds = timeoutSeconds
            self.memoryLimitBytes = memoryLimitBytes
        }
    }

    public let lua: LuaState
    public let configuration: Configuration
    public let runtime = Runtime()
    let objects = ObjectRegistry()
    let refs: RefStore
    /// The thread whose host function is running: nested calls into Lua use its stack.
    var L: OpaquePointer
    /// Registry refs of `ck.config.onWarning` and `onTrace`, when set from Lua.
    var warningHandler: LuaRef?
    var traceHandler: LuaRef?
    var scriptTables: TablesAdapter!
    /// Cached send resolutions for the C `send` method of actions.
    var sendPlans: SendPlans!
    var defaultWarning: Int32 = 0
    var traceTracer: Tracer?
    /// Method and field tables of component and controller classes.
    var classTables: [ObjectIdentifier: LuaRef] = [:]
    /// Set while `deinit` closes the Lua state: host functions then refuse (`[deadObject]`).
    var isClosing = false
    /// Component classes' scope functions, which their handles carry (`setScopeFunction`).
    var scopeFunctions: [ObjectIdentifier: LuaRef] = [:]
    /// Script fields of live controllers (weak: a controller lives as long as its scope).
    var controllerFields: [ObjectIdentifier: ControllerFields] = [:]
    var controllerFieldsPruneAt = 64
    /// The host `ck.run` made (the app runner's `app`).
    public internal(set) var appHostObject: Host?
    /// Component classes defined so far: the app rule asks whether a script defined one.
    var componentClassesDefined = 0

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        lua = LuaState(memoryLimitBytes: configuration.memoryLimitBytes)
        L = lua.L
        refs = RefStore(L: lua.L)
        lua.owner = self
        objects.setUp(lua.L, refs: refs)
        scriptTables = TablesAdapter(engine: self)
        runtime.tables = scriptTables
        runtime.onWarning = { [unowned self] in self.warn($0) }
        ModuleBinding.open(in: self)
        ck_set_warning_handler(lua.L, Engine.luaWarning)
        if configuration.sandbox { Sandbox.apply(to: lua) }
    }

    deinit {
        // Finalizers run while this object is still whole; released refs are just forgotten,
        // and Lua's warnings no longer reach it.
        lua.owner = nil
        isClosing = true
        refs.L = nil
        lua.close()
    }

    /// Sets the global `arg` the way `lua` does: the script at 0, the interpreter below it.
    public func setArguments(script: String, arguments: [String], interpreter: String) {
        let L = lua.L
        lua_createtable(L, Int32(arguments.count), 2)
        lua.push(interpreter)
        lua_rawseti(L, -2, -1)
        lua.push(script)
        lua_rawseti(L, -2, 0)
        for (i, a) in arguments.enumerated() {
            lua.push(a)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
        lua.setGlobal("arg")
    }

    /// Runs a chunk with `...` bound to `arguments`, under the configured time limit.
    public func runChunk(_ code: String, name: String, arguments: [String] = []) throws(LuaError) {
        _ = try runChunk(code, name: name, arguments: arguments, results: 0)
    }

    /// Runs a chunk and leaves `results` values on the stack (LUA_MULTRET = -1: all of them);
    /// returns how many it left.
    public func runChunk(_ code: String, name: String, arguments: [String] = [], results: Int32) throws(LuaError) -> Int32 {
        let base = lua.top
        try lua.load(code, name: name)
        for a in arguments { lua.push(a) }
        try withLimits { () throws(LuaError) in try lua.call(arguments: Int32(arguments.count), results: results) }
        return lua.top - base
    }

    /// Runs `body` under the configured deadline, if any.
    public func withLimits<T>(_ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        try withDeadline(configuration.timeoutSeconds, body)
    }

    /// Runs `body` with Lua code stopped by `[timeout]` after `seconds` (nil: no limit), and
    /// Ctrl-C turned into `[interrupted]` as lua.c does (a second Ctrl-C ends the process).
    public func withDeadline<T>(_ seconds: Double?, _ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        ck_sigint_watch(lua.L, 0)
        defer { ck_sigint_unwatch() }
        guard let seconds else { return try body() }
        ck_set_deadline(lua.L, seconds)
        defer { ck_clear_deadline(lua.L) }
        return try body()
    }

    /// Async-signal-safe: the running chunk stops at its next instruction check with `[interrupted]`.
    public func interrupt() { ck_interrupt(lua.L) }

    // MARK: Diagnostics for tests and benchmarks

    /// Registry references held by the core, and live handles held by Lua.
    public var liveReferences: Int { refs.live }
    public var liveHandles: Int { objects.liveHandles }

    /// Lua's warnings while they are on (`warn("@on")`, `-W`): a finalizer's error goes to
    /// `ck.config.onWarning` as `[finalizerError]` when a handler is set; everything else is
    /// printed by the C side as lua.c prints it (returning 0).
    private static let luaWarning: ck_warning_fn = { L, message, isFinalizerError in
        guard isFinalizerError != 0, let L, let message, let state = ck_get_host(L) else { return 0 }
        let lua = Unmanaged<LuaState>.fromOpaque(state).takeUnretainedValue()
        guard let engine = lua.owner as? Engine, engine.warningHandler != nil else { return 0 }
        engine.runtime.warn(.finalizerError, "\(String(cString: message)); finalizers should not raise")
        return 1
    }

    func warn(_ message: String) {
        guard let handler = warningHandler else {
            FileStream.standardError.write(message + "\n")
            return
        }
        do { _ = try call(handler, [.string(message)]) } catch {
            FileStream.standardError.write(message + "\n")
        }
    }
}
