import CKCore
import CLua
import CLuaShims

/// Reads a Swift function's arguments; every check throws a `[badArgument]` naming the
/// function, the argument, the expected and the actual type.
struct Arguments {
    let L: OpaquePointer
    unowned(unsafe) let engine: Engine

    /// Runs `body` with the engine borrowed: each read of the unowned(unsafe) field is a strong
    /// copy (a retain and a release, the release measured on the slow path), so a hot binding
    /// that uses it several times borrows it once.
    @inline(__always)
    func withEngine<T>(_ body: (Engine) throws -> T) rethrows -> T {
        try Unmanaged.passUnretained(engine)._withUnsafeGuaranteedRef(body)
    }
    let function: String

    var count: Int32 { lua_gettop(L) }

    func typeName(_ i: Int32) -> String {
        if let o = engine.objects.object(at: i, L) { return o.typeName }
        return String(cString: lua_typename(L, lua_type(L, i)))
    }

    func bad(_ i: Int32, _ name: String, _ expected: @autoclosure () -> String) -> RuntimeError {
        RuntimeError(.badArgument, "\(function): argument #\(i) (\(name)) must be \(expected()), got \(typeName(i))")
    }

    func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }

    func string(_ i: Int32, _ name: String) throws -> String {
        guard lua_type(L, i) == LUA_TSTRING else { throw bad(i, name, "a string") }
        guard let s = engine.lua.name(at: i, on: L) else { throw notAName(i, name) }
        return s
    }

    /// Strings `ck` takes (names, selectors, queries) are UTF-8 without NUL bytes.
    func notAName(_ i: Int32, _ name: String) -> RuntimeError {
        RuntimeError(.badArgument, "\(function): argument #\(i) (\(name)) must be UTF-8 text without NUL bytes, got \(engine.lua.quoted(at: i, on: L))")
    }

    /// A key of a definition table (a method or field name): a string key must be a name.
    func key(at i: Int32, in what: String) throws -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        guard let key = engine.lua.name(at: i, on: L) else {
            throw RuntimeError(.badArgument, "\(what): key \(engine.lua.quoted(at: i, on: L)) must be UTF-8 text without NUL bytes")
        }
        return key
    }

    func optionalString(_ i: Int32, _ name: String) throws -> String? {
        isNil(i) ? nil : try string(i, name)
    }

    func number(_ i: Int32, _ name: String) throws -> Double {
        guard lua_type(L, i) == LUA_TNUMBER else { throw bad(i, name, "a number") }
        return lua_tonumberx(L, i, nil)
    }

    /// A duration: any number but NaN (negative ones count as 0, infinite ones as never).
    func seconds(_ i: Int32, _ name: String) throws -> Double {
        let d = try number(i, name)
        guard !d.isNaN else { throw RuntimeError(.badArgument, "\(function): argument #\(i) (\(name)) must be a number of seconds, got nan") }
        return d
    }

    /// A number with an integral value that fits an `Int` (1e300, NaN, inf and 1.5 are refused).
    func integer(_ i: Int32, _ name: String) throws -> Int {
        guard lua_type(L, i) == LUA_TNUMBER else { throw bad(i, name, "an integer") }
        if lua_isinteger(L, i) != 0, let n = Int(exactly: lua_tointegerx(L, i, nil)) { return n }
        guard let n = Int(exactly: lua_tonumberx(L, i, nil)) else {
            throw RuntimeError(.badArgument, "\(function): argument #\(i) (\(name)) must be an integer, got \(engine.lua.shown(at: i, on: L))")
        }
        return n
    }

    func table(_ i: Int32, _ name: String) throws {
        guard lua_type(L, i) == LUA_TTABLE else { throw bad(i, name, "a table") }
    }

    func function(_ i: Int32, _ name: String) throws -> LuaRef {
        guard lua_type(L, i) == LUA_TFUNCTION else { throw bad(i, name, "a function") }
        return engine.reference(at: i, L, .function)
    }

    func object<T: RuntimeObject>(_ i: Int32, _ name: String, _ expected: @autoclosure () -> String) throws -> T {
        guard let o = engine.objects.object(at: i, L) as? T else { throw bad(i, name, expected()) }
        return o
    }

    func optionalObject<T: RuntimeObject>(_ i: Int32, _ name: String, _ expected: @autoclosure () -> String) throws -> T? {
        isNil(i) ? nil : try object(i, name, expected()) as T
    }

    func value(_ i: Int32) -> Value { engine.value(at: i, L) }

    /// A responder argument: a component, controller, view, or a plain (host responder) table.
    func responder(_ i: Int32, _ name: String) throws -> Responder {
        if let o = engine.objects.object(at: i, L), let r = Responder.from(o) { return r }
        if lua_type(L, i) == LUA_TTABLE { return .script(engine.hosts.scriptResponder(at: i, L)) }
        throw bad(i, name, "a component, controller, view or responder table")
    }

    func optionalResponder(_ i: Int32, _ name: String) throws -> Responder? {
        isNil(i) ? nil : try responder(i, name)
    }

    /// `types`: nil, a type name, or an array of type names.
    func types(_ i: Int32, _ name: String = "types") throws -> [TypeSpec] {
        if isNil(i) { return [] }
        if lua_type(L, i) == LUA_TSTRING { return [try engine.resolveType(try string(i, name))] }
        guard lua_type(L, i) == LUA_TTABLE else { throw bad(i, name, "an array of type names") }
        var out: [TypeSpec] = []
        try engine.forEachItem(ofList: i, L) { k in
            guard let s = engine.lua.name(at: -1, on: L) else {
                let got = lua_type(L, -1) == LUA_TSTRING ? engine.lua.quoted(at: -1, on: L) + " (not UTF-8 text without NUL bytes)"
                    : String(cString: lua_typename(L, lua_type(L, -1)))
                throw RuntimeError(.badArgument, "\(function): \(name)[\(k)] must be a type name string, got \(got)")
            }
            out.append(try engine.resolveType(s))
        }
        return out
    }
}

extension Engine {
    func resolveType(_ name: String) throws -> TypeSpec {
        guard let t = runtime.types.resolve(name, isClass: runtime.isClassName) else {
            throw RuntimeError(.unknownType, "unknown type \"\(Excerpt.text(name))\"; use any, bool, int, number, string, table, function, a ck.struct name, or a class defined before this point")
        }
        return t
    }

    /// Wraps a throwing body as a Swift function; thrown errors are raised by the trampoline.
    func hostFunction(_ name: String, _ body: @escaping (Arguments) throws -> Int32) -> LuaState.SwiftFunction {
        // unowned(unsafe): finalizers run through here while the engine closes its state in deinit;
        // then only handles' own `__gc` runs (the rest of the engine is going).
        let refusedWhileClosing = name != "__gc"
        return { [unowned(unsafe) self] call in
            if self.isClosing && refusedWhileClosing {
                return call.raise(.deadObject, "\(name): the engine is closing its Lua state; a finalizer that runs then cannot call into ck")
            }
            do {
                return try body(Arguments(L: call.L, engine: self, function: name))
            } catch let e as RuntimeError {
                if let at = e.location { return call.raise(e.id.message(e.detail, at: at)) }
                return call.raise(e.id, e.detail)
            } catch let e as ScriptFailure {
                // The innermost keeps its traceback: the same error re-raised by an outer
                // runtime call (ck.trace around a send) has fewer frames.
                if self.lastScriptFailure?.message != e.message { self.lastScriptFailure = e }
                return call.raise(e.message)
            } catch let e as BuildFailure {
                return call.raise(Catalogue.buildFailed.message(e.detail, at: call.location()) + "\n" + e.cause
                                  + (e.traceback.isEmpty ? "" : "\n" + e.traceback))
            } catch {
                return call.raise("\(error)")
            }
        }
    }

    /// Sets `t[name]` (t on top of the stack) to a new Swift function.
    func setFunction(_ name: String, qualified: String? = nil, _ body: @escaping (Arguments) throws -> Int32) {
        lua.pushSwiftFunction(lua.register(hostFunction(qualified ?? name, body)))
        LuaStack(lua.L).setField(name, of: -2)
    }

    /// Sets `t[name]` (t on top of the stack) for each function of a binding's table, as
    /// `prefix + name` in error messages.
    func setFunctions(_ table: [(String, (Arguments) throws -> Int32)], prefix: String) {
        for (name, body) in table { setFunction(name, qualified: prefix + name, body) }
    }

    /// Registers a Swift function and returns its id (to push it later without a table).
    func registerFunction(_ name: String, _ body: @escaping (Arguments) throws -> Int32) -> Int32 {
        lua.register(hostFunction(name, body))
    }

    /// Makes and registers the metatable of `kind`. `index` answers fields and methods.
    /// `nativeMethods` are pushed by their closures (C functions that are not Swift functions).
    func defineMetatable(_ kind: ObjectKind, methods: [String: Int32] = [:],
                         nativeMethods: [String: (OpaquePointer) -> Void] = [:],
                         index: @escaping (Arguments, String) throws -> Int32,
                         newindex: ((Arguments, String) throws -> Int32)? = nil,
                         tostring: @escaping (Arguments) throws -> String,
                         extra: ((Engine) -> Void)? = nil) {
        let L = lua.L
        lua_createtable(L, 0, 8)
        pushString("ck." + kind.name, L)
        LuaStack(L).setField("__name", of: -2)
        pushString("locked", L)
        LuaStack(L).setField("__metatable", of: -2)
        let fields = registerFunction(kind.name) { args in
            guard let key = args.engine.lua.name(at: 2, on: args.L) else { lua_pushnil(args.L); return 1 }
            return try index(args, key)
        }
        pushIndex(methods: methods, nativeMethods: nativeMethods, fields: fields, L)
        LuaStack(L).setField("__index", of: -2)
        let typeName = kind.name
        setFunction("__newindex", qualified: kind.name) { args in
            if let newindex, let key = try args.key(at: 2, in: "\(typeName) field") { return try newindex(args, key) }
            throw RuntimeError(.badArgument, "cannot set fields of a \(typeName)")
        }
        setFunction("__tostring", qualified: "tostring") { args in
            args.engine.pushString(try tostring(args), args.L)
            return 1
        }
        setFunction("__gc", qualified: "__gc") { args in
            args.engine.objects.collect(at: 1, args.L)
            return 0
        }
        extra?(self)
        objects.setMetatable(for: kind, L)
    }

    /// `__index`: methods are looked up in a table without entering Swift; other keys go to
    /// the Swift `fields` function (a method call's lookup was measured at ~2,000 instructions
    /// through Swift, ~100 through this C function).
    private func pushIndex(methods: [String: Int32], nativeMethods: [String: (OpaquePointer) -> Void],
                           fields: Int32, _ L: OpaquePointer) {
        guard !methods.isEmpty || !nativeMethods.isEmpty else {
            pushFunction(fields, L)
            return
        }
        lua_createtable(L, 0, Int32(methods.count + nativeMethods.count))
        for (name, id) in methods {
            pushFunction(id, L)
            LuaStack(L).setField(name, of: -2)
        }
        for (name, push) in nativeMethods {
            push(L)
            LuaStack(L).setField(name, of: -2)
        }
        ckindex_push(L, fields)
    }

    /// Registers `body` as method `name` of objects of type T, checking `self` first.
    func registerMethod<T: RuntimeObject>(_ name: String, of type: String, into methods: inout [String: Int32],
                                          _ body: @escaping (Arguments, T) throws -> Int32) {
        methods[name] = registerFunction("\(type):\(name)") { args in
            let object: T = try args.object(1, "self", "a \(type) (call it as \(type):\(name)(...))")
            return try body(args, object)
        }
    }

    /// Pushes a cached method function by id.
    func pushFunction(_ id: Int32, _ L: OpaquePointer) {
        cktrampoline_push_swift_function(L, id)
    }
}
