import CLua
import CLuaShims

/// A Lua value's type, as the stack reports it.
enum LuaType: Int32 {
    case none = -1, `nil`, boolean, lightUserdata, number, string, table, function, userdata, thread

    /// `nil` or an absent argument.
    var isNil: Bool { rawValue <= LUA_TNIL }
    var name: String {
        switch self {
        case .none: "no value"
        case .nil: "nil"
        case .boolean: "boolean"
        case .lightUserdata, .userdata: "userdata"
        case .number: "number"
        case .string: "string"
        case .table: "table"
        case .function: "function"
        case .thread: "thread"
        }
    }
}

/// One thread's stack as the bindings and the CLI may use it. Nothing here can raise: access is
/// raw (no metamethod runs), a value is checked to be a table before it is indexed, keys carry
/// their length, and allocation cannot fail because Swift runs in Swift mode (see `ckalloc`).
/// Pushes beyond the 20 free slots Lua guarantees go through `reserve` first.
struct LuaStack {
    let L: OpaquePointer

    @inline(__always) init(_ L: OpaquePointer) { self.L = L }

    var top: Int32 {
        @inline(__always) get { lua_gettop(L) }
        @inline(__always) nonmutating set { lua_settop(L, newValue) }
    }

    @inline(__always) func type(_ i: Int32) -> LuaType { LuaType(rawValue: lua_type(L, i)) ?? .none }
    @inline(__always) func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }
    @inline(__always) func isTable(_ i: Int32) -> Bool { lua_type(L, i) == LUA_TTABLE }
    @inline(__always) func isFunction(_ i: Int32) -> Bool { lua_type(L, i) == LUA_TFUNCTION }
    @inline(__always) func isString(_ i: Int32) -> Bool { lua_type(L, i) == LUA_TSTRING }
    @inline(__always) func isBoolean(_ i: Int32) -> Bool { lua_type(L, i) == LUA_TBOOLEAN }
    func typeName(_ i: Int32) -> String { type(i).name }
    @inline(__always) func absolute(_ i: Int32) -> Int32 { lua_absindex(L, i) }

    /// Room for `n` more values; false if the stack cannot grow (the caller raises).
    @inline(__always) func reserve(_ n: Int) -> Bool { n <= 0 || (n < Int(Int32.max) && ckstack_checkstack(L, Int32(n)) != 0) }

    @inline(__always) func pop(_ n: Int32 = 1) { ckmacros_pop(L, n) }
    @inline(__always) func insert(at i: Int32) { ckmacros_insert(L, i) }
    @inline(__always) func remove(at i: Int32) { ckmacros_remove(L, i) }
    @inline(__always) func replace(at i: Int32) { ckmacros_replace(L, i) }

    // MARK: Pushes

    @inline(__always) func pushNil() { lua_pushnil(L) }
    @inline(__always) func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
    @inline(__always) func push(_ i: Int) { lua_pushinteger(L, lua_Integer(i)) }
    @inline(__always) func push(_ d: Double) { lua_pushnumber(L, d) }
    @inline(__always) func pushValue(at i: Int32) { lua_pushvalue(L, i) }
    func push(_ s: String) {
        var s = s
        s.withUTF8 { b in _ = b.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) } }
    }
    /// A new table with room for `array` items and `fields` keys.
    @inline(__always) func newTable(array: Int = 0, fields: Int = 0) {
        lua_createtable(L, Int32(clamping: array), Int32(clamping: fields))
    }

    // MARK: Reads

    @inline(__always) func toBool(_ i: Int32) -> Bool { lua_toboolean(L, i) != 0 }
    @inline(__always) func isInteger(_ i: Int32) -> Bool { lua_isinteger(L, i) != 0 }
    @inline(__always) func integer(_ i: Int32) -> Int64 { lua_tointegerx(L, i, nil) }
    @inline(__always) func number(_ i: Int32) -> Double { lua_tonumberx(L, i, nil) }
    /// How many items the list at `i` has: t[1], t[2], … up to the first nil, as `ipairs`
    /// walks it (0 for anything but a table). The only length of a script's list Swift uses:
    /// `#t` is a border, not a size (41 entries can have a border of 2^40). Loops over a list
    /// go through `Engine.forEachItem`, which also ticks the limits.
    @inline(__always) func listLength(_ i: Int32) -> Int { Int(ckstack_list_length(L, i)) }
    /// Pushes a raw copy of the table at `i` if no value is a userdata and it has at most
    /// `limit` keys (`ckviewspec_plain_copy`); false: nothing pushed.
    @inline(__always) func pushPlainCopy(of i: Int32, limit: Int32) -> Bool { ckviewspec_plain_copy(L, i, limit) != 0 }
    /// Pushes the raw `class` and `attributes` of the view spec table at `t` (`ckviewspec_fields`);
    /// returns the type of `class`.
    @inline(__always) func pushViewSpecFields(of t: Int32) -> LuaType { LuaType(rawValue: ckviewspec_fields(L, t)) ?? .none }
    /// The byte length of the string at `i` (0 for any other value), without converting it.
    func stringLength(_ i: Int32) -> Int {
        guard lua_type(L, i) == LUA_TSTRING else { return 0 }
        var length = 0
        _ = ckmacros_tostring(L, i, &length)
        return length
    }
    @inline(__always) func identity(_ i: Int32) -> UInt { UInt(bitPattern: lua_topointer(L, i)) }
    @inline(__always) func rawEqual(_ a: Int32, _ b: Int32) -> Bool { lua_rawequal(L, a, b) != 0 }

    // MARK: Tables, raw

    /// Pushes `t[name]` of the table at `t` (nil if it is not a table); returns its type.
    @discardableResult
    func field(_ name: String, of t: Int32) -> LuaType {
        var n = name
        let r = n.withUTF8 { b in b.withMemoryRebound(to: CChar.self) { ckstack_rawget_named(L, t, $0.baseAddress, $0.count) } }
        return LuaType(rawValue: r) ?? .none
    }

    /// Pushes `t.key` (raw; nil if `t` is not a table). The name is a C literal, found in Lua's
    /// string cache by its address: `field("key", of:)` hashed it for every component.
    @discardableResult
    func key(of t: Int32) -> LuaType { LuaType(rawValue: ckmacros_rawgetkey(L, t)) ?? .none }

    /// `t[name] = ` the value on top (popped); nothing is stored if `t` is not a table.
    func setField(_ name: String, of t: Int32) {
        var n = name
        n.withUTF8 { b in _ = b.withMemoryRebound(to: CChar.self) { ckstack_rawset_named(L, t, $0.baseAddress, $0.count) } }
    }

    /// Key on top → `t[key]`.
    @discardableResult @inline(__always)
    func get(from t: Int32) -> LuaType { LuaType(rawValue: ckstack_rawget_key(L, t)) ?? .none }
    /// Key and value on top → `t[key] = value`.
    @inline(__always) func set(into t: Int32) { _ = ckstack_rawset_key(L, t) }
    @discardableResult @inline(__always)
    func get(_ i: Int, from t: Int32) -> LuaType { LuaType(rawValue: ckstack_rawgeti_checked(L, t, lua_Integer(i))) ?? .none }
    @inline(__always) func set(_ i: Int, into t: Int32) { _ = ckstack_rawseti_checked(L, t, lua_Integer(i)) }

    /// `lua_next` over the table at `t` (key on top): false when done (or `t` is not a table).
    /// The loop must run no Lua between steps (see `protectedNext`).
    @inline(__always) func next(_ t: Int32) -> Bool {
        guard lua_type(L, t) == LUA_TTABLE else { ckmacros_pop(L, 1); return false }
        return lua_next(L, t) != 0
    }

    /// `next` under pcall, for traversals that run Lua (`__tostring`) between their steps.
    func protectedNext(_ t: Int32) -> Bool {
        guard lua_type(L, t) == LUA_TTABLE else { ckmacros_pop(L, 1); return false }
        return keepingInterrupt { ckpcall_safe_next(L, t) } != 0
    }

    /// Runs `call`, a protected call whose error its caller drops (a walk, a value's text): Ctrl-C
    /// is not dropped with it, but raised again at the script's next instruction (atk-stale 18: a
    /// loop over `host:dump`, whose state's `__tostring` calls took every Ctrl-C, ran on).
    @inline(__always) func keepingInterrupt(_ call: () -> Int32) -> Int32 {
        let before = ckwatchdog_interrupts_raised(L)
        let result = call()
        if ckwatchdog_interrupts_raised(L) != before { ckwatchdog_interrupt(L) }
        return result
    }

    /// The registry's `key` (raw).
    @discardableResult
    func registryField(_ key: String) -> LuaType { field(key, of: ckmacros_registryindex()) }
    func setRegistryField(_ key: String) { setField(key, of: ckmacros_registryindex()) }

    /// A callable table (luassert's spies and stubs): see `isCallable`.
    func isCallableTable(_ i: Int32) -> Bool { isTable(i) && isCallable(i) }

    /// What `pcall` calls, as every argument and key that takes a callback takes it: a
    /// function, or a table or userdata whose metatable's `__call` is itself callable (Lua 5.4
    /// follows `__call` through tables: atk-new2 02). Read raw: no metamethod runs.
    func isCallable(_ i: Int32) -> Bool { whyNotCallable(i) == nil }

    /// How long a `__call` chain may be; a longer one (or a cycle) is refused, never walked on.
    static let callChainLimit = 16

    /// Nil when the value at `i` is callable (`isCallable`), else why not, worded to follow
    /// "got table": "" (no `__call`), or " whose __call is a number (not callable)".
    func whyNotCallable(_ i: Int32) -> String? {
        let i = absolute(i), base = lua_gettop(L)
        guard lua_checkstack(L, 3) != 0 else { return " (no stack space to read its __call)" }
        defer { lua_settop(L, base) }
        lua_pushvalue(L, i)
        var seen: Set<UInt> = []
        for depth in 0...Self.callChainLimit {
            let t = type(-1)
            if t == .function { return nil }
            let what = depth == 0 ? "" : (depth == 1 ? " whose __call is " : " whose __call chain reaches ") + Engine.withArticle(t.name)
            guard t == .table || t == .userdata else { return depth == 0 ? "" : what + " (not callable)" }
            guard seen.insert(UInt(bitPattern: lua_topointer(L, -1))).inserted else {
                return " whose __call chain loops back to itself (not callable)"
            }
            guard lua_getmetatable(L, -1) != 0, field("__call", of: -1) != .nil else {
                return depth == 0 ? "" : what + " without __call (not callable)"
            }
            lua_copy(L, -1, -3)  // the __call value takes the value's place
            lua_settop(L, -3)
        }
        return " whose __call chain is longer than \(Self.callChainLimit) (not callable)"
    }

    /// Pushes the table `__index` of the value at `i`'s metatable names, read raw (no metamethod
    /// runs); false, with nothing pushed, when there is no such table.
    func pushIndexTable(of i: Int32) -> Bool {
        guard lua_getmetatable(L, i) != 0 else { return false }
        guard field("__index", of: -1) == .table else { pop(2); return false }
        remove(at: -2)
        return true
    }

    /// Sets the metatable of the value at `i` to the table on top (popped).
    func setMetatable(of i: Int32) { lua_setmetatable(L, i) }
}
