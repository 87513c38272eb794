import CKCore
import CLua
import CLuaShims

/// Owns one `lua_State` and the Swift functions callable from it.
///
/// Not actor-isolated on purpose: every Lua → Swift call goes through here, and an
/// isolation hop on that path was measured at +20 ns per call.
public final class LuaState {
    public typealias SwiftFunction = (borrowing SwiftCall) -> Int32

    public let L: OpaquePointer
    /// Where C keeps the thread whose Swift function runs (see `cktrampoline_call_swift`).
    let currentThread: UnsafeMutablePointer<OpaquePointer?>
    private let memory: UnsafeMutablePointer<ck_memory>
    private var swiftFunctions: [SwiftFunction] = []
    /// Slots of collectable functions Lua collected, for the next one made.
    private var freeFunctionIDs: [Int32] = []
    /// Whatever owns this state (the `ck` engine); found again from any coroutine. The owner
    /// clears it before it goes (a weak reference would make every retain of the engine slow).
    public unowned(unsafe) var owner: AnyObject?

    /// `pooledMemory`: small blocks come from pools freed with the state (ckpool.c), for
    /// short-lived states such as a test file's.
    public init(memoryLimitBytes: Int = 0, openLibraries: Bool = true, pooledMemory: Bool = false) {
        memory = .allocate(capacity: 1)
        memory.initialize(to: ck_memory(used: 0, peak: 0, limit: memoryLimitBytes, in_swift: 1, exceeded: 0, pool: nil, held: 0, extra: nil))
        guard let state = ckstate_new(memory, pooledMemory ? 1 : 0) else { fatalError(ProgramName.prefixed("cannot create a Lua state (out of memory)")) }
        L = state
        currentThread = ckstate_current_thread(state)
        LuaState.installDispatcher()
        ckstate_set_owner(L, Unmanaged.passUnretained(self).toOpaque())
        if openLibraries {
            _ = ckpcall_openlibs(L)
            _ = ckguards_install(L)
        }
    }

    private var isClosed = false

    /// Closes the state (running finalizers). Nothing may use the state afterwards.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        ckstate_close(L)
    }

    deinit {
        close()
        memory.deinitialize(count: 1)
        memory.deallocate()
    }

    // MARK: Memory

    public var memoryInUse: Int { Int(memory.pointee.used) }
    public var memoryPeak: Int { Int(memory.pointee.peak) }
    /// Fixed when the state is made (a limited state takes no pools, see ckstate_new).
    public var memoryLimit: Int { Int(memory.pointee.limit) }
    /// Bytes Swift keeps on the script's behalf, counted with Lua's against the limit.
    public var memoryHeld: Int { Int(memory.pointee.held) }

    /// Where the state counts the bytes Swift keeps for the script (issue 24, class 5): the
    /// runtime's `WorkLimits.held` points here, and the allocator adds it to Lua's bytes.
    var heldCounter: UnsafeMutablePointer<Int> {
        (UnsafeMutableRawPointer(memory) + MemoryLayout<ck_memory>.offset(of: \.held)!).assumingMemoryBound(to: Int.self)
    }

    /// After Swift kept more: past the limit the overshoot is recorded as an allocation in Swift
    /// records it (the trampoline raises `[memoryLimit]` once Lua runs again).
    func noteHeldGrew() {
        if ckshims_over_limit(memory) != 0 { memory.pointee.exceeded = 1 }
    }

    /// Whether Swift passed the memory limit since Lua last ran (an overshoot the trampoline
    /// would raise), still past it after a full collection; a passing one is forgotten.
    func overshootStands() -> Bool {
        guard memory.pointee.exceeded != 0 else { return false }
        if ckshims_over_limit(memory) != 0 { collectGarbage() }
        if ckshims_over_limit(memory) == 0 { memory.pointee.exceeded = 0; return false }
        return true
    }

    /// The memory limit in whole megabytes, for messages.
    var memoryLimitMegabytes: Int { memory.pointee.limit / (1024 * 1024) }

    /// Collects garbage fully (runs finalizers under Lua's own protection).
    public func collectGarbage() {
        memory.pointee.in_swift += 1
        ckstate_gc_collect(L)
        memory.pointee.in_swift -= 1
    }

    // MARK: Host functions

    /// Registers a Swift function; it is pushed with `pushSwiftFunction(id)`.
    public func register(_ function: @escaping SwiftFunction) -> Int32 {
        swiftFunctions.append(function)
        return Int32(swiftFunctions.count - 1)
    }

    public func pushSwiftFunction(_ id: Int32) { cktrampoline_push_swift_function(L, id) }

    /// Registers and pushes in one step, for as long as the state lives: for the functions a
    /// binding makes once. What is made per call (a responder's methods at each mount) is
    /// ``pushCollectable(_:)``.
    public func push(_ function: @escaping SwiftFunction) { pushSwiftFunction(register(function)) }

    /// Pushes `function` as a Lua function whose slot (and the Swift closure, with what it
    /// captured) is released when Lua collects it; a later one reuses the slot.
    public func pushCollectable(_ function: @escaping SwiftFunction) {
        let id: Int32
        if let reused = freeFunctionIDs.popLast() {
            swiftFunctions[Int(reused)] = function
            id = reused
        } else {
            id = register(function)
        }
        cktrampoline_push_collectable_swift_function(L, id)
    }

    /// Called by the finalizer of a collected function's slot (no Lua runs here).
    fileprivate func releaseFunction(_ id: Int32) {
        swiftFunctions[Int(id)] = { _ in 0 }
        freeFunctionIDs.append(id)
    }

    // The state outlives every call into it: borrowed, not retained and released per call.
    fileprivate static let dispatch: ck_dispatch_fn = { L, id in
        Unmanaged<LuaState>.fromOpaque(ckstate_get_owner(L!)!)._withUnsafeGuaranteedRef { state in
            state.swiftFunctions[Int(id)](SwiftCall(L: L!, state: state))
        }
    }

    fileprivate static let release: ck_release_fn = { L, id in
        Unmanaged<LuaState>.fromOpaque(ckstate_get_owner(L!)!)._withUnsafeGuaranteedRef { $0.releaseFunction(id) }
    }

    private static let installOnce: Void = {
        cktrampoline_set_dispatcher(LuaState.dispatch)
        cktrampoline_set_releaser(LuaState.release)
    }()
    private static func installDispatcher() { _ = installOnce }

    // MARK: Loading and calling

    /// Set by `--sandbox`: every chunk Swift loads is text (bytecode is not verified by Lua).
    public var loadsTextOnly = false {
        didSet { if loadsTextOnly { ckpcall_set_text_only(L) } }
    }

    /// Calls the function below `nargs` arguments under pcall with a traceback.
    public func call(arguments nargs: Int32, results nresults: Int32) throws(LuaError) {
        let status = ckpcall(L, nargs, nresults)
        if status != LUA_OK { throw popError(status: status) }
    }

    /// Loads and runs a chunk, discarding its results.
    public func run(_ source: LuaSource, name: String = "=(ckrun)") throws(LuaError) {
        try load(source, name: name)
        try call(arguments: 0, results: 0)
    }

    /// Loads and runs a chunk, returning its first result converted to a string (or nil).
    public func evaluate(_ source: LuaSource, name: String = "=(ckrun)") throws(LuaError) -> String? {
        try load(source, name: name)
        try call(arguments: 0, results: 1)
        defer { ckmacros_pop(L, 1) }
        if lua_type(L, -1) == LUA_TNIL { return nil }
        return describe(at: -1)
    }

    /// Pops an error value and turns it into a `LuaError`.
    public func popError(status: Int32) -> LuaError { popError(status: status, on: L) }

    /// Pops an error value from `thread`'s stack.
    public func popError(status: Int32, on L: OpaquePointer) -> LuaError {
        defer { ckmacros_pop(L, 1) }
        let exceeded = memory.pointee.exceeded != 0
        memory.pointee.exceeded = 0
        let handled = describe(at: -1, on: L)
        // An overshoot Swift made while the error was raised does not replace the script's own
        // error (which says where it struck); only Lua's bare memory error is replaced.
        // Without a limit it is the machine's memory that ran out: Lua's own message, as lua5.4.
        if (status == LUA_ERRMEM && memory.pointee.limit != 0) || (exceeded && handled.hasPrefix("not enough memory")) {
            // Where it struck was noted when the allocation was refused (`ckalloc_limit_message`).
            return LuaError(message: String(cString: ckalloc_limit_message(L, nil)), status: status)
        }
        return LuaError(handled: handled, status: status)
    }

    // MARK: Limits

    /// Lua code raises `[timeout]` once `seconds` have passed (see ckwatchdog.c).
    public func setDeadline(_ seconds: Double) { ckwatchdog_set_deadline(L, seconds) }
    /// Ctrl-C stops the running chunk (`as lua`: the error "interrupted!", else `[interrupted]`);
    /// a second Ctrl-C ends the process, as lua.c does.
    /// Returns the mode it replaced, for `unwatchInterrupts`.
    public func watchInterrupts(asLua: Bool = false) -> Bool { ckwatchdog_sigint_watch(L, asLua ? 1 : 0) != 0 }
    /// Puts the previous handler back, and the mode `watchInterrupts` replaced.
    public func unwatchInterrupts(asLua: Bool) { ckwatchdog_sigint_unwatch(asLua ? 1 : 0) }
    public func clearDeadline() { ckwatchdog_clear_deadline(L) }
    /// Async-signal-safe: the running chunk stops at its next instruction check with `[interrupted]`.
    public func interrupt() { ckwatchdog_interrupt(L) }
    public func clearInterrupt() { ckwatchdog_clear_interrupt(L) }
    /// Ends a Ctrl-C raised in the piece of code that just ended; one not raised yet stays.
    public func endRaisedInterrupt() { ckinterruption_end_raised(L) }

    /// Bytes malloc has handed out in this process: Lua's and Swift's allocations together.
    public static var heapBytes: Int { Int(ckalloc_heap_bytes()) }

    // MARK: Warnings

    /// Receives Lua's whole warnings (`warn()` text, or a finalizer's error), with Swift mode on
    /// and the warning's thread current, as for any Swift function.
    /// Returns whether it took the warning; otherwise C prints it as lua.c does.
    public var onWarning: ((String, _ isFinalizerError: Bool) -> Bool)? {
        didSet { ckwarn_set_handler(L, onWarning == nil ? nil : LuaState.warning) }
    }

    private static let warning: ck_warning_fn = { L, message, isFinalizerError in
        guard let L, let message, let state = ckstate_get_owner(L) else { return 0 }
        let lua = Unmanaged<LuaState>.fromOpaque(state).takeUnretainedValue()
        guard lua.owner != nil, let handler = lua.onWarning else { return 0 }
        // Entered from Lua, not through the trampoline.
        var frame = ck_swift_frame()
        ckstate_enter_swift(L, &frame)
        defer { ckstate_leave_swift(L, &frame) }
        return handler(String(cString: message), isFinalizerError != 0) ? 1 : 0
    }

    // MARK: Stack helpers that never raise

    public var top: Int32 {
        get { lua_gettop(L) }
        set { lua_settop(L, newValue) }
    }

    public func pop(_ n: Int32 = 1) { ckmacros_pop(L, n) }

    public func string(at index: Int32) -> String? { string(at: index, on: L) }

    public func string(at index: Int32, on L: OpaquePointer) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = ckmacros_tostring(L, index, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: chars, count: length), as: UTF8.self)
    }

    /// A string's bytes carried as they are (`ByteText`: a byte that is not UTF-8 is one
    /// private-use scalar, not U+FFFD), for text that names files (coverage's sources).
    public func carriedText(at index: Int32) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = ckmacros_tostring(L, index, &length) else { return nil }
        return ByteText.text(UnsafeRawBufferPointer(start: chars, count: length))
    }

    /// A string that can be a name (of a class, method, selector, field, type, event): valid
    /// UTF-8 without NUL bytes, or nil. Names are compared as Swift strings, so bytes a lossy
    /// decoding would merge (`"\254"` and `"\255"`) or cut (`"a\0b"`) are refused instead.
    public func name(at index: Int32, on L: OpaquePointer) -> String? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let chars = ckmacros_tostring(L, index, &length) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: chars, count: length)
        var ascii = true
        for b in bytes {
            if b == 0 { return nil }
            if b >= 0x80 { ascii = false }
        }
        // ASCII is decoded as it is; other bytes are validated first (`LuaText`: decoding 10 MB
        // of "\255" in full made a 30 MB repaired copy outside the memory limit).
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return LuaText.string(chars, count: length)
    }

    /// `name(at:on:)`, answering `last` again when the string has its bytes (a view function
    /// returns the same class name for every instance: no new string, no validation). The bytes
    /// are compared in C with those kept beside the name (through `String` they cost ~200 instructions).
    public func name(at index: Int32, on L: OpaquePointer, reusing last: inout ReusedName?) -> String? {
        if let known = last,
           known.bytes.withUnsafeBufferPointer({ ckmacros_string_equals(L, index, $0.baseAddress, $0.count) != 0 }) {
            return known.name
        }
        let made = name(at: index, on: L)
        if let made { last = ReusedName(name: made, bytes: ContiguousArray(made.utf8)) }
        return made
    }

    /// The string at `index` as an error message quotes it: a Lua literal of at most
    /// `Excerpt.limit` bytes (`Excerpt.quoted`).
    public func quoted(at index: Int32, on L: OpaquePointer) -> String {
        var length = 0
        guard lua_type(L, index) == LUA_TSTRING, let chars = ckmacros_tostring(L, index, &length) else { return "?" }
        return Excerpt.quoted(UnsafeRawBufferPointer(start: chars, count: length))
    }

    /// Any value as an error message shows it: its `tostring` (run protected, under the turn's
    /// limits), at most `Excerpt.limit` bytes of it converted to Swift.
    public func shown(at index: Int32, on L: OpaquePointer) -> String {
        var length = 0
        // NaN as every message shows it (`NumberText`), never printf's `-nan`.
        if lua_type(L, index) == LUA_TNUMBER, lua_isinteger(L, index) == 0, lua_tonumberx(L, index, nil).isNaN { return "nan" }
        if lua_type(L, index) == LUA_TSTRING, let chars = ckmacros_tostring(L, index, &length) {
            return Excerpt.text(UnsafeRawBufferPointer(start: chars, count: length))
        }
        let status = LuaStack(L).keepingInterrupt { ckpcall_safe_tostring(L, index) }
        defer { ckmacros_pop(L, 1) }
        guard let chars = ckmacros_tostring(L, -1, &length) else { return "?" }
        let text = Excerpt.text(UnsafeRawBufferPointer(start: chars, count: length))
        return status == LUA_OK ? text : "(tostring failed: \(text))"
    }

    /// The string at `index` as the text dump shows it (`DumpText.quoted`, from its bytes).
    public func dumpQuoted(at index: Int32, on L: OpaquePointer) -> String {
        var length = 0
        guard lua_type(L, index) == LUA_TSTRING, let chars = ckmacros_tostring(L, index, &length) else { return "?" }
        return DumpText.quoted(UnsafeRawBufferPointer(start: chars, count: length))
    }

    /// `tostring` of any value, running `__tostring` under pcall.
    public func describe(at index: Int32) -> String { describe(at: index, on: L) }

    /// `tostring` of any value as if no metatable had a `__tostring` (no script code runs): for
    /// what the runtime orders or names behind the script's back (a view attribute's key).
    public func rawDescribe(at index: Int32, on L: OpaquePointer) -> String {
        if let s = string(at: index, on: L) { return s }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = ckstack_raw_text(L, index, &buffer, buffer.count)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func describe(at index: Int32, on L: OpaquePointer) -> String {
        if let s = string(at: index, on: L) { return s }
        let status = LuaStack(L).keepingInterrupt { ckpcall_safe_tostring(L, index) }
        defer { ckmacros_pop(L, 1) }
        if status != LUA_OK { return "(tostring failed: \(string(at: -1, on: L) ?? "?"))" }
        return string(at: -1, on: L) ?? "?"
    }

    /// Pushes a file's path (or a command line word) as the bytes it carries (`ByteText`: a byte
    /// that is not UTF-8 stays that byte, not a private-use scalar's four).
    public func push(path: String) {
        let bytes = ByteText.bytes(of: path)
        bytes.withUnsafeBufferPointer { raw in
            _ = raw.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes onto the main thread's stack (Swift functions push onto their own thread's).
    public func push(_ string: String) {
        var s = string
        s.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// Sets `_G[name]` to the value on top of the stack and pops it, raw: a script's `_G.__newindex`
    /// (a strict-globals `_G`) does not run.
    public func setGlobal(_ name: String) { setGlobal(name, on: L) }

    /// Pushes `_G[name]`, raw (nil if absent).
    func pushGlobal(_ name: String) {
        var n = name
        _ = n.withUTF8 { b in b.withMemoryRebound(to: CChar.self) { ckstack_getglobal_raw(L, $0.baseAddress, $0.count) } }
    }

    public func setGlobal(_ name: String, on L: OpaquePointer) {
        var n = name
        n.withUTF8 { b in b.withMemoryRebound(to: CChar.self) { ckstack_setglobal_raw(L, $0.baseAddress, $0.count) } }
    }
}

/// A name `LuaState.name(at:on:reusing:)` read last, with its bytes.
public struct ReusedName {
    let name: String
    let bytes: ContiguousArray<UInt8>
}
