import CKCore
import CLua
import CLuaShims

/// Owns one `lua_State` and the host functions callable from it.
///
/// Not actor-isolated on purpose: every Lua → Swift call goes through here, and an
/// isolation hop on that path was measured at +20 ns per call.
public final class LuaState {
    public typealias HostFunction = (borrowing HostCall) -> Int32

    public let L: OpaquePointer
    private let memory: UnsafeMutablePointer<ck_memory>
    private var hostFunctions: [HostFunction] = []
    /// Whatever owns this state (the `ck` engine); found again from any coroutine. The owner
    /// clears it before it goes (a weak reference would make every retain of the engine slow).
    public unowned(unsafe) var owner: AnyObject?

    public init(memoryLimitBytes: Int = 0, openLibraries: Bool = true) {
        memory = .allocate(capacity: 1)
        memory.initialize(to: ck_memory(used: 0, peak: 0, limit: memoryLimitBytes, in_host: 0, exceeded: 0))
        guard let state = ck_newstate(memory) else { fatalError("ckrun: cannot create a Lua state (out of memory)") }
        L = state
        LuaState.installDispatcher()
        ck_set_host(L, Unmanaged.passUnretained(self).toOpaque())
        if openLibraries { _ = ck_openlibs(L) }
    }

    private var isClosed = false

    /// Closes the state (running finalizers). Nothing may use the state afterwards.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        ck_closestate(L)
    }

    deinit {
        close()
        memory.deinitialize(count: 1)
        memory.deallocate()
    }

    // MARK: Memory

    public var memoryInUse: Int { Int(memory.pointee.used) }
    public var memoryPeak: Int { Int(memory.pointee.peak) }
    public var memoryLimit: Int {
        get { Int(memory.pointee.limit) }
        set { memory.pointee.limit = newValue }
    }

    /// Collects garbage fully (runs finalizers under Lua's own protection).
    public func collectGarbage() {
        memory.pointee.in_host += 1
        ck_gc_collect(L)
        memory.pointee.in_host -= 1
    }

    // MARK: Host functions

    /// Registers a Swift function; it is pushed with `pushHostFunction(id)`.
    public func register(_ function: @escaping HostFunction) -> Int32 {
        hostFunctions.append(function)
        return Int32(hostFunctions.count - 1)
    }

    public func pushHostFunction(_ id: Int32) { ck_push_hostfunction(L, id) }

    /// Registers and pushes in one step.
    public func push(_ function: @escaping HostFunction) { pushHostFunction(register(function)) }

    fileprivate static let dispatch: ck_dispatch_fn = { L, id in
        let state = Unmanaged<LuaState>.fromOpaque(ck_get_host(L!)!).takeUnretainedValue()
        return state.hostFunctions[Int(id)](HostCall(L: L!, state: state))
    }

    private static let installOnce: Void = { ck_set_dispatcher(LuaState.dispatch) }()
    private static func installDispatcher() { _ = installOnce }

    // MARK: Loading and calling

    /// Loads a chunk onto the stack, from its UTF-8 bytes. A file's chunk (a name starting with
    /// `@`) skips a BOM and a `#` first line as `luaL_loadfilex` does, keeping line numbers.
    public func load(_ code: String, name: String, mode: String = "bt") throws(LuaError) {
        if name.hasPrefix("@") {
            try load(bytes: Array(LuaState.skippingFilePrefix(code.utf8)), name: name, mode: mode)
            return
        }
        var source = code
        let status = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                ck_loadbuffer(L, chars.baseAddress, chars.count, name, mode)
            }
        }
        if status != LUA_OK { throw popError(status: status) }
    }

    /// Calls the function below `nargs` arguments under pcall with a traceback.
    public func call(arguments nargs: Int32, results nresults: Int32) throws(LuaError) {
        let status = ck_pcall(L, nargs, nresults)
        if status != LUA_OK { throw popError(status: status) }
    }

    /// Loads and runs a chunk, discarding its results.
    public func run(_ code: String, name: String = "=(ckrun)") throws(LuaError) {
        try load(code, name: name)
        try call(arguments: 0, results: 0)
    }

    /// Loads and runs a chunk, returning its first result converted to a string (or nil).
    public func evaluate(_ code: String, name: String = "=(ckrun)") throws(LuaError) -> String? {
        try load(code, name: name)
        try call(arguments: 0, results: 1)
        defer { ck_pop(L, 1) }
        if lua_type(L, -1) == LUA_TNIL { return nil }
        return describe(at: -1)
    }

    /// Pops an error value and turns it into a `LuaError`.
    public func popError(status: Int32) -> LuaError { popError(status: status, on: L) }

    /// Pops an error value from `thread`'s stack.
    public func popError(status: Int32, on L: OpaquePointer) -> LuaError {
        defer { ck_pop(L, 1) }
        if status == LUA_ERRMEM || memory.pointee.exceeded != 0 {
            memory.pointee.exceeded = 0
            let limit = memory.pointee.limit / (1024 * 1024)
            return LuaError(message: Catalogue.memoryLimit.message(
                "the script used more than its memory limit (\(limit) MB); raise --memory-limit or use less memory"),
                status: status)
        }
        return LuaError(handled: describe(at: -1, on: L), status: status)
    }

    // MARK: Stack helpers that never raise

    public var top: Int32 {
        get { lua_gettop(L) }
        set { lua_settop(L, newValue) }
    }

    public func pop(_ n: Int32 = 1) { ck_pop(L, n) }

    public func string(at index: Int32) -> String? { string(at: index, on: L) }

    public func string(at index: Int32, on L: OpaquePointer) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = ck_tostring(L, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    /// `tostring` of any value, running `__tostring` under pcall.
    public func describe(at index: Int32) -> String { describe(at: index, on: L) }

    public func describe(at index: Int32, on L: OpaquePointer) -> String {
        if let s = string(at: index, on: L) { return s }
        let status = ck_safe_tostring(L, index)
        defer { ck_pop(L, 1) }
        if status != LUA_OK { return "(tostring failed: \(string(at: -1, on: L) ?? "?"))" }
        return string(at: -1, on: L) ?? "?"
    }

    /// Pushes onto the main thread's stack (host functions push onto their own thread's).
    public func push(_ string: String) {
        var s = string
        s.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Sets `_G[name]` to the value on top of the stack and pops it (raw: `_G` has no metatable of ours).
    public func setGlobal(_ name: String) { lua_setglobal(L, name) }
}
