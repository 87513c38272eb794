import CKCore
import CLua
import CLuaShims

/// Moves values between the Lua stack and the core: pushes and reads values, makes references
/// where `ownership` says, and calls script functions under pcall (the engine's `values`). A class
/// of its own, stored in a `let`, so a caller holding the engine reaches it, and it its fields,
/// borrowed: the send, build and update paths pay no retain for it.
final class Values {
    let lua: LuaState
    let refs: RefStore
    let objects: ObjectRegistry
    let runtime: Runtime
    let ownership: Ownership

    init(ownership: Ownership) {
        lua = ownership.lua
        refs = ownership.refs
        objects = ownership.objects
        runtime = ownership.runtime
        self.ownership = ownership
    }

    /// The thread whose Swift function is running (`Engine.runningThread`).
    var runningThread: OpaquePointer { lua.currentThread.pointee.unsafelyUnwrapped }

    /// Reads `t[name]` without metamethods; pushes the value and returns its type.
    @discardableResult
    func rawField(_ L: OpaquePointer, _ index: Int32, _ name: String) -> LuaType {
        LuaStack(L).field(name, of: index)
    }

    func push(_ value: Value) { push(value, runningThread) }

    func push(_ value: Value, _ L: OpaquePointer) {
        switch value {
        case .nil: lua_pushnil(L)
        case .bool(let b): lua_pushboolean(L, b ? 1 : 0)
        case .int(let i): lua_pushinteger(L, i)
        case .number(let d): lua_pushnumber(L, d)
        case .string(let s): pushString(s, L)
        case .object(let o): push(o, L)
        case .table(let r):
            let ref = unsafeDowncast(r, to: LuaRef.self)
            if ref.isProps { pushView(of: ref, L) } else { ref.push(L) }
        case .function(let r), .opaque(let r): unsafeDowncast(r, to: LuaRef.self).push(L)
        }
    }

    func push(_ object: RuntimeObject, _ L: OpaquePointer) {
        guard let kind = ObjectKind.of(object) else {
            if let s = object as? ScriptResponder { push(s.table, L) } else { lua_pushnil(L) }
            return
        }
        if objects.push(object, kind: kind, L) {
            ownership.attachArena(of: object, kind: kind, toHandleAt: -1, L)
            if kind == .componentClass { ClassBridge.setScopeFunction(of: object as! ComponentClass, onHandleAt: -1, L, objects: objects) }
        }
        objects.keepWhileLive(handleAt: -1, of: object, kind: kind, arena: { ownership.arena(of: $0, kind: kind) }, L)
    }

    func push(_ object: RuntimeObject?) {
        if let object { push(object, runningThread) } else { lua_pushnil(runningThread) }
    }

    func pushString(_ s: String, _ L: OpaquePointer) {
        var s = s
        s.withUTF8 { b in
            _ = b.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    func pushString(_ s: String) { pushString(s, runningThread) }

    /// Pushes the bytes `text` carries (`ByteText`; `Arguments.carriedString` read them).
    func pushCarried(_ text: String, _ L: OpaquePointer) {
        ByteText.bytes(of: text).withUnsafeBufferPointer { b in
            _ = b.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
    }

    /// The value at `index` as the core sees it; tables and functions become references, made
    /// where `home` says (Arenas.swift).
    func value(at index: Int32, _ L: OpaquePointer) -> Value { value(at: index, L, arena: nil, fromHome: true) }

    /// The value at `index`, its references made in `arena` (nil: the registry).
    func value(at index: Int32, _ L: OpaquePointer, in arena: Arena?) -> Value {
        value(at: index, L, arena: arena, fromHome: false)
    }

    /// `value(at:in:)` for a key or a scope identifier: nil and integers, nearly all of them,
    /// read inline (this is `Class(props)`, the build's hot path).
    @inline(__always)
    func keyValue(at index: Int32, _ L: OpaquePointer, in arena: Arena) -> Value {
        let type = lua_type(L, index)
        if type == LUA_TNIL { return .nil }
        if type == LUA_TNUMBER, lua_isinteger(L, index) != 0 { return .int(lua_tointegerx(L, index, nil)) }
        return value(at: index, L, in: arena)
    }

    @inline(__always)
    private func value(at index: Int32, _ L: OpaquePointer, arena: Arena?, fromHome: Bool) -> Value {
        func reference(_ type: ScriptType) -> LuaRef { self.reference(at: index, L, type, in: fromHome ? ownership.homeArena : arena) }
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .nil
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .int(lua_tointegerx(L, index, nil)) }
            return .number(lua_tonumberx(L, index, nil))
        case LUA_TSTRING:
            var length = 0
            if let s = LuaText.string(ckmacros_tostring(L, index, &length), count: length) { return .string(s) }
            // Not UTF-8: carried as the Lua string itself, so that every byte survives the trip.
            return .opaque(reference(.string))
        case LUA_TTABLE: return .table(reference(.table))
        case LUA_TFUNCTION: return .function(reference(.function))
        case LUA_TUSERDATA:
            if let o = objects.object(at: index, L) { return .object(o) }
            if let props = propsReference(at: index, L, in: fromHome ? ownership.homeArena : arena) { return .table(props) }
            return .opaque(reference(.userdata))
        default: return .opaque(reference(.thread))
        }
    }

    func value(at index: Int32) -> Value { value(at: index, runningThread) }

    /// The table on top of `L`, popped into a reference in the home arena: a table made for the
    /// core (a view's attributes), whose type is known, goes there without `value(at:)`'s tests.
    func popTable(_ L: OpaquePointer) -> Value {
        .table(refs.make(L, type: .table, identity: UInt(bitPattern: lua_topointer(L, -1)), in: ownership.homeArena))
    }

    /// The value at `index` when it needs no reference (nil, a boolean, a number, a UTF-8
    /// string), else nil: for values only compared, never kept.
    func plainValue(at index: Int32, _ L: OpaquePointer) -> Value? {
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE, LUA_TBOOLEAN, LUA_TNUMBER: return value(at: index, L, in: nil)
        case LUA_TSTRING:
            var length = 0
            return LuaText.string(ckmacros_tostring(L, index, &length), count: length).map(Value.string)
        default: return nil
        }
    }

    /// Strings longer than this stay Lua strings where the core keeps a value it never reads
    /// (state, queued updates, a host's model): a Swift copy per scope or per queued update of
    /// one Lua string multiplied what Swift held past `--memory-limit` (issue 24, class 5).
    static let carriedCopyLimit = 64

    /// The value at `index`, for the core to keep: a long string is the Lua string itself
    /// (`.opaque`: its bytes are Lua's, counted once however often it is kept).
    func carriedValue(at index: Int32, _ L: OpaquePointer) -> Value {
        var length = 0
        if lua_type(L, index) == LUA_TSTRING, ckmacros_tostring(L, index, &length) != nil, length > Self.carriedCopyLimit {
            return .opaque(reference(at: index, L, .string))
        }
        return value(at: index, L)
    }

    func reference(at index: Int32, _ L: OpaquePointer, _ type: ScriptType) -> LuaRef {
        reference(at: index, L, type, in: ownership.homeArena)
    }

    func reference(at index: Int32, _ L: OpaquePointer, _ type: ScriptType, in arena: Arena?) -> LuaRef {
        let identity = UInt(bitPattern: lua_topointer(L, index))
        lua_pushvalue(L, index)
        return refs.make(L, type: type, identity: identity, in: arena)
    }

    /// A reference to the callable at `index` (`LuaStack.isCallable`), typed as what it is.
    func callableReference(at index: Int32, _ L: OpaquePointer) -> LuaRef {
        switch lua_type(L, index) {
        case LUA_TFUNCTION: reference(at: index, L, .function)
        case LUA_TTABLE: reference(at: index, L, .table)
        default: reference(at: index, L, .userdata)
        }
    }

    /// The function at `index` as a `Method`: its arity, and a body that calls it with the receiver first.
    func method(at index: Int32, name: String, hasSelf: Bool, _ L: OpaquePointer) -> Method {
        var ar = lua_Debug()
        lua_pushvalue(L, index)
        lua_getinfo(L, ">u", &ar)
        let params = Int(ar.nparams) - (hasSelf ? 1 : 0)
        let fn = reference(at: index, L, .function)
        return Method(name: name, parameterCount: max(0, params), isVararg: ar.isvararg != 0, script: fn,
                      takesReceiver: hasSelf) { [unowned self] receiver, args in
            try self.callHandler(fn, receiver: hasSelf ? (receiver?.object).map(Value.object) ?? .nil : nil, args)
        }
    }

    /// A callable table (a luassert spy or stub) as a method: it receives every argument (a spy
    /// records what it is called with, so no arity may drop any: a `spy.new()` handler, or a
    /// spy of `function() end`, saw only self). Its arity, for `[tooManyArguments]`, is its own,
    /// never that of the method it replaced: the function a spy wraps (its raw `callback`,
    /// `spy.on(Class, "m")`), else vararg. `hasSelf` false: a block action's (`ck.action(spy)`).
    func callableMethod(at index: Int32, name: String, hasSelf: Bool = true, _ L: OpaquePointer) -> Method {
        let callable = reference(at: index, L, .table)
        let (count, vararg) = wrappedArity(at: index, hasSelf: hasSelf, L)
        return Method(name: name, parameterCount: count, isVararg: vararg, receivesAll: true,
                      script: callable, takesReceiver: hasSelf) { [unowned self] receiver, args in
            try self.callHandler(callable, receiver: hasSelf ? (receiver?.object).map(Value.object) ?? .nil : nil, args)
        }
    }

    /// The parameters after `self` of the function a spy at `index` wraps, following raw
    /// `callback` fields through a few spies of spies; vararg when none leads to a function.
    private func wrappedArity(at index: Int32, hasSelf: Bool, _ L: OpaquePointer) -> (count: Int, vararg: Bool) {
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        lua_pushvalue(L, index)
        for _ in 0..<8 where lua_type(L, -1) == LUA_TTABLE {
            let type = LuaStack(L).field("callback", of: -1)
            LuaStack(L).remove(at: -2)
            guard type == .function else { break }
            var ar = lua_Debug()
            lua_getinfo(L, ">u", &ar)
            return (max(0, Int(ar.nparams) - (hasSelf ? 1 : 0)), ar.isvararg != 0)
        }
        return (0, true)
    }

    /// Calls a Lua function under pcall on the running thread; Lua errors become `ScriptFailure`.
    @discardableResult
    func call(_ fn: LuaRef, _ args: [Value], results: Int32 = 1) throws -> [Value] {
        let L = self.runningThread
        try reserve(args.count, L)
        let base = lua_gettop(L)
        fn.push(L)
        for a in args { push(a, L) }
        let status = ckpcall(L, Int32(args.count), results)
        if status != LUA_OK { throw failure(status) }
        let n = lua_gettop(L) - base
        var out: [Value] = []
        out.reserveCapacity(Int(n))
        for i in 0..<n { out.append(value(at: base + 1 + i, L)) }
        lua_settop(L, base)
        return out
    }

    /// Calls a Lua function with up to three arguments for its first result (nil if none): the
    /// build's path (render, scope, initialState, shouldUpdate), so it builds no arrays.
    func callForValue(_ fn: LuaRef, _ a: Value, _ b: Value? = nil, _ c: Value? = nil, carrying: Bool = false) throws -> Value {
        try callForValue(fn, carrying: carrying) { L in
            var n: Int32 = 1
            push(a, L)
            if let b { push(b, L); n += 1 }
            if let c { push(c, L); n += 1 }
            return n
        }
    }

    /// Calls `fn` with the arguments `pushArguments` pushes (it returns their count, at most
    /// three: Lua promises a C function more free slots than that) for its first result;
    /// `carrying`: a result the core keeps (see `carriedValue`).
    @inline(__always)
    func callForValue(_ fn: LuaRef, carrying: Bool = false, pushing pushArguments: (OpaquePointer) -> Int32) throws -> Value {
        let L = self.runningThread
        let base = pushCall(fn)
        let n = pushArguments(L)
        try protectedCall(n, results: 1, base: base)
        let result = carrying ? carriedValue(at: -1, L) : value(at: -1, L)
        lua_settop(L, base)
        return result
    }

    /// `callForValue` that hands `read` the first result where it lies on the stack (the index
    /// of the top) instead of making a value of it: a view function's table is read once and
    /// dropped, so a reference to it would be made only to be released.
    @inline(__always)
    func callForResult<T>(_ fn: LuaRef, pushing pushArguments: (OpaquePointer) -> Int32,
                          reading read: (Int32, OpaquePointer) throws -> T) throws -> T {
        let L = self.runningThread
        let base = pushCall(fn)
        let n = pushArguments(L)
        try protectedCall(n, results: 1, base: base)
        defer { lua_settop(L, base) }
        return try read(lua_gettop(L), L)
    }

    /// Calls a handler with its receiver (if any) and arguments, discarding results: the send
    /// path, so it builds no arrays.
    func callHandler(_ fn: LuaRef, receiver: Value?, _ args: [Value]) throws {
        let L = self.runningThread
        try reserve(args.count, L)
        let base = pushCall(fn)
        var n: Int32 = 0
        if let receiver {
            push(receiver, L)
            n = 1
        }
        for a in args { push(a, L) }
        try protectedCall(n + Int32(args.count), results: 0, base: base)
        lua_settop(L, base)
    }

    /// Room on `L` for `n` values and a call's few extras, or `[stackLimit]`. Lua guarantees a
    /// C function 20 free slots, so a handful of values needs no check (the send path's case).
    @inline(__always)
    func reserve(_ n: Int, _ L: OpaquePointer) throws {
        guard n > 8 else { return }
        guard LuaStack(L).reserve(n + 8) else {
            throw RuntimeError(.stackLimit, "\(n) values are more than a Lua stack holds; pass them in a table")
        }
    }

    /// Pushes the message handler and `fn` (the handler first, so nothing has to be rotated
    /// under the function); returns the stack top before them.
    private func pushCall(_ fn: LuaRef) -> Int32 {
        let base = lua_gettop(runningThread)
        lua_pushcclosure(runningThread, ckpcall_traceback, 0)
        fn.push(runningThread)
        return base
    }

    /// Calls what `pushCall` and the arguments left; on error, restores `base` and throws.
    private func protectedCall(_ nargs: Int32, results: Int32, base: Int32) throws {
        let status = ckpcall_at(runningThread, nargs, results, base + 1)
        guard status != LUA_OK else { return }
        let error = failure(status)
        lua_settop(runningThread, base)
        throw error
    }

    /// `v` referenced again where new references go now (a value passed from one owner to another).
    func rehomed(_ v: Value) -> Value {
        switch v {
        case .table, .function, .opaque:
            let L = runningThread
            push(v, L)
            defer { LuaStack(L).pop(1) }
            return carriedValue(at: -1, L)
        default: return v
        }
    }

    /// Pops a pcall error and classifies it.
    func failure(_ status: Int32) -> Error {
        // An error value that was no string is kept to be raised again as it is (SPEC §6.3).
        var original: Value?
        if ckpcall_error_value(runningThread, -1) != 0 {
            original = value(at: -1, runningThread)
            LuaStack(runningThread).pop(1)
        }
        let e = lua.popError(status: status, on: runningThread)
        // Lua's own, or coroutine.yield's catalogued one (ckguards.c) that no pcall caught.
        if e.message.contains("attempt to yield across a C-call boundary") { return ScriptErrors.yieldAcrossRuntime(at: nil) }
        if e.message.hasPrefix(Self.yieldPrefix) { return ScriptErrors.yieldAcrossRuntime(at: Self.yieldLocation(in: e.message)) }
        return ScriptFailure(message: e.message, traceback: e.traceback, value: original)
    }
}

extension Values {
    static let yieldPrefix = "[yieldAcrossRuntime] "

    /// The `file:line` ckthreads.c's yield put after the id (`[yieldAcrossRuntime] app.lua:5: a
    /// coroutine yielded …`): where `coroutine.yield` was called, which the message keeps.
    static func yieldLocation(in message: String) -> String? {
        let rest = message.dropFirst(yieldPrefix.count), tail = ": " + CK_YIELD_ACROSS_RUNTIME
        guard rest.hasSuffix(tail) else { return nil }
        let place = rest.dropLast(tail.count)
        return place.isEmpty || place.contains("\n") ? nil : String(place)
    }
}

/// Lets the core read and make struct tables, and compare props shallowly.
final class TablesAdapter: ScriptTableComparing {
    unowned let values: Values

    init(values: Values) {
        self.values = values
    }

    func field(_ table: ScriptRef, _ name: String) -> Value {
        let L = values.runningThread
        (table as! LuaRef).push(L)
        LuaStack(L).field(name, of: -1)
        let v = values.value(at: -1, L)
        lua_settop(L, -3)
        return v
    }

    /// A new table holding the raw fields `names` of the table `props` (a built-in's attribute
    /// props, the view's attributes), copied on the stack: a string is not made a Swift string
    /// and then a Lua string again (every built-in view, every build). A userdata goes through
    /// `Value` as `makeTable` would take it (a props view stands for its table).
    func copyFields(_ names: [String], of props: Value) -> Value {
        let L = values.runningThread, stack = LuaStack(L)
        stack.newTable(fields: names.count)
        guard case .table(let ref) = props else { return values.popTable(L) }
        (ref as! LuaRef).push(L)
        for name in names {
            switch stack.field(name, of: -1) {
            case .nil, .none, .boolean, .number, .string, .table, .function: break
            default:
                let v = values.value(at: -1, L)
                ckmacros_pop(L, 1)
                values.push(v, L)
            }
            stack.setField(name, of: -3)
        }
        ckmacros_pop(L, 1)
        return values.popTable(L)
    }

    func isCallable(_ value: ScriptRef) -> Bool {
        let L = values.runningThread
        guard lua_checkstack(L, 1) != 0 else { return false }
        (value as! LuaRef).push(L)
        defer { lua_settop(L, -2) }
        return LuaStack(L).isCallable(-1)
    }

    func makeTable(_ fields: [(String, Value)]) -> Value {
        let L = values.runningThread
        LuaStack(L).newTable(fields: fields.count)
        for (k, v) in fields {
            values.push(v, L)
            LuaStack(L).setField(k, of: -2)
        }
        let v = values.value(at: -1, L)
        ckmacros_pop(L, 1)
        return v
    }

    func makeTable(integerKeyed entries: [(Int, Value)]) -> Value {
        let L = values.runningThread
        LuaStack(L).newTable(fields: entries.count)
        for (k, v) in entries {
            values.push(v, L)
            LuaStack(L).set(k, into: -2)
        }
        let v = values.value(at: -1, L)
        ckmacros_pop(L, 1)
        return v
    }

    /// Whether a table has a key that is not one of the names `known` (a string key of other
    /// bytes, or a key of another type): its keys' bytes compared in place, no Swift string
    /// made (a built-in's props, at each construction); `names(of:)` then says which.
    func hasKey(of table: ScriptRef, outside known: [String]) -> Bool {
        let L = values.runningThread, stack = LuaStack(L), base = stack.top
        defer { stack.top = base }
        (table as! LuaRef).push(L)
        stack.pushNil()
        while stack.next(base + 1) {
            guard stack.isString(-2) else { return true }
            var length = 0
            let key = UnsafeRawBufferPointer(start: ckmacros_tostring(L, -2, &length), count: length)
            guard known.contains(where: { $0.utf8.count == length && $0.utf8.elementsEqual(key) }) else { return true }
            stack.pop()
        }
        return false
    }

    /// The string keys of a table (raw), in traversal order.
    /// The table's string keys, and whether it has keys of other types (`{A{}, B{}}`'s 1 and 2).
    func names(of table: ScriptRef) -> (strings: [String], others: Bool) {
        let L = values.runningThread
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        (table as! LuaRef).push(L)
        var out: [String] = [], others = false
        stack.pushNil()
        while stack.next(base + 1) {
            if stack.isString(-2), let k = values.lua.string(at: -2, on: L) { out.append(k) } else { others = true }
            stack.pop()
        }
        return (out, others)
    }

    /// `shallowEqual` of a referenced table and the table at `index` of `L`'s stack.
    func shallowEqual(_ a: ScriptRef, toTableAt index: Int32, _ L: OpaquePointer) -> Bool {
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (a as! LuaRef).push(L)
        return propsEqual(base + 1, lua_absindex(L, index), L)
    }

    /// One level: same keys with raw-equal values, or actions that are `==` (in C:
    /// `ckcompare_shallow_equal`; its "maybe" has the differing userdata compared here).
    func shallowEqual(_ a: ScriptRef, _ b: ScriptRef) -> Bool {
        let L = values.runningThread
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (a as! LuaRef).push(L)
        (b as! LuaRef).push(L)
        return propsEqual(base + 1, base + 2, L)
    }

    /// The pure compare of the tables at `a` and `b` (absolute indices).
    private func propsEqual(_ a: Int32, _ b: Int32, _ L: OpaquePointer) -> Bool {
        let answer = ckcompare_shallow_equal(L, a, b)
        return answer == 1 || (answer == 2 && objectsEqual(a, b, L))
    }

    /// C found the tables equal but for pairs of different userdata: each such pair must be two
    /// actions that are `==` (api.md: kind, target, scope, selector and function).
    private func objectsEqual(_ a: Int32, _ b: Int32, _ L: OpaquePointer) -> Bool {
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        guard lua_checkstack(L, 4) != 0 else { return false }
        stack.pushNil()
        while stack.next(a) {
            stack.pushValue(at: -2)
            lua_rawget(L, b)
            let same = lua_rawequal(L, -1, -2) != 0 || actionsEqual(at: -1, -2, L)
            stack.pop(2)
            if !same { return false }
        }
        return true
    }

    private func actionsEqual(at i: Int32, _ j: Int32, _ L: OpaquePointer) -> Bool {
        guard let x = values.objects.object(at: i, L) as? Action,
              let y = values.objects.object(at: j, L) as? Action else { return false }
        return x.isEqual(to: y)
    }
}
