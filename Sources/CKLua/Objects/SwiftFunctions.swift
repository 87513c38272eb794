import CKCore
import CLua
import CLuaShims

/// Swift functions for Lua, the way every binding makes them (the engine's `functions`): a
/// throwing body wrapped so its errors are raised by the trampoline, tables of named functions set
/// on a table, and the metatables of bound types. Bindings use it while the `ck` module opens.
struct SwiftFunctions {
    // Strong: one lives for one call (`engine.functions`), as `ClassBridge` does.
    let engine: Engine

    /// Wraps a throwing body as a Swift function; thrown errors are raised by the trampoline.
    func hostFunction(_ name: String, _ body: @escaping (Arguments) throws -> Int32) -> LuaState.SwiftFunction {
        // unowned(unsafe): finalizers run through here while the engine closes its state in deinit;
        // then only handles' own `__gc` runs (the rest of the engine is going).
        let refusedWhileClosing = name != "__gc"
        return { [unowned(unsafe) engine] call in
            if engine.isClosing && refusedWhileClosing {
                return call.raise(.deadObject, "\(name): the engine is closing its Lua state; a finalizer that runs then cannot call into ck")
            }
            if !engine.refs.arenasDueToShrink.isEmpty && refusedWhileClosing { engine.refs.shrinkDueArenas(call.L) }
            do {
                return try body(Arguments(L: call.L, engine: engine, function: name))
            } catch let e as RuntimeError {
                if let at = e.location { return call.raise(e.id.message(e.detail, at: at)) }
                return call.raise(e.id, e.detail)
            } catch let e as ScriptFailure {
                // The innermost keeps its traceback: the same error re-raised by an outer
                // runtime call (ck.trace around a send) has fewer frames.
                if engine.lastScriptFailure?.message != e.message { engine.lastScriptFailure = e }
                guard let original = e.value else { return call.raise(e.message) }
                engine.values.push(original, call.L)
                return CK_RAISE
            } catch let e as BuildFailure {
                return call.raise(BuildFailure.text(Catalogue.buildFailed.message(e.detail, at: call.location()), over: e.cause)
                                  + (e.traceback.isEmpty ? "" : "\n" + e.traceback))
            } catch {
                return call.raise("\(error)")
            }
        }
    }

    /// Sets `t[name]` (t on top of the stack) to a new Swift function.
    func setFunction(_ name: String, qualified: String? = nil, _ body: @escaping (Arguments) throws -> Int32) {
        engine.lua.pushSwiftFunction(engine.lua.register(hostFunction(qualified ?? name, body)))
        LuaStack(engine.lua.L).setField(name, of: -2)
    }

    /// Sets `t[name]` (t on top of the stack) for each function of a binding's table, as
    /// `prefix + name` in error messages.
    func setFunctions(_ table: [(String, (Arguments) throws -> Int32)], prefix: String) {
        for (name, body) in table { setFunction(name, qualified: prefix + name, body) }
    }

    /// Registers a Swift function and returns its id (to push it later without a table).
    func registerFunction(_ name: String, _ body: @escaping (Arguments) throws -> Int32) -> Int32 {
        engine.lua.register(hostFunction(name, body))
    }

    /// Sets `__newindex` of the metatable at `metatable`: `t[key]` keeps the value at `kept`
    /// (assigning it again changes nothing), another value for it calls `refuse`; other keys
    /// are stored raw, in C.
    func setKeepingNewindex(of metatable: Int32, key: String, kept: Int32, refuse: Int32) {
        let L = engine.lua.L
        let table = LuaStack(L).absolute(metatable), keptAt = LuaStack(L).absolute(kept)
        engine.values.pushString(key, L)
        lua_pushvalue(L, keptAt)
        ckindex_push_keeping(L, refuse)
        LuaStack(L).setField("__newindex", of: table)
    }

    /// Makes and registers the metatable of `kind`. `index` answers fields and methods.
    /// `nativeMethods` are pushed by their closures (C functions that are not Swift functions).
    /// A field read; a handle a finalizer kept is named by the field read (`reading props of a
    /// Component`), said again only when the read failed so: a field read is hot.
    private static func read(_ key: String, _ args: Arguments,
                             _ index: (Arguments, String) throws -> Int32) throws -> Int32 {
        do {
            return try index(args, key)
        } catch let e as RuntimeError where e.id == .deadObject {
            guard let dead = args.engine.objects.finalizedHandle(at: 1, args.L) else { throw e }
            throw Arguments.finalized(dead, "reading \(Excerpt.text(key)) of \(Article.with(args.function))")
        }
    }

    func defineMetatable(_ kind: ObjectKind, methods: [String: Int32] = [:],
                         nativeMethods: [String: (OpaquePointer) -> Void] = [:],
                         index: @escaping (Arguments, String) throws -> Int32,
                         newindex: ((Arguments, String) throws -> Int32)? = nil,
                         tostring: @escaping (Arguments) throws -> String,
                         extra: ((Engine) -> Void)? = nil) {
        let L = engine.lua.L
        lua_createtable(L, 0, 8)
        engine.values.pushString("ck." + kind.name, L)
        LuaStack(L).setField("__name", of: -2)
        engine.values.pushString("locked", L)
        LuaStack(L).setField("__metatable", of: -2)
        let names = FieldNames(L, refs: engine.refs)
        let fields = registerFunction(kind.name) { args in
            guard let key = names.name(at: 2, args.L, decoding: args.engine.lua) else { lua_pushnil(args.L); return 1 }
            return try Self.read(key, args, index)
        }
        pushIndex(methods: methods, nativeMethods: nativeMethods, fields: fields, L)
        LuaStack(L).setField("__index", of: -2)
        let typeName = kind.name
        setFunction("__newindex", qualified: kind.name) { args in
            if let newindex, let key = try args.key(at: 2, in: "\(typeName) field") { return try newindex(args, key) }
            // A component is immutable whatever the key (`c[1] = x`, `table.move(t, 1, 1, 1, c)`).
            if kind == .component { return try ComponentBinding.newindex(args, Article.with(args.typeName(2)) + " key") }
            throw RuntimeError(.badArgument, "cannot set fields of \(Article.with(typeName))")
        }
        setFunction("__tostring", qualified: "tostring") { args in
            args.engine.values.pushString(ObjectText.line(try tostring(args)), args.L)
            return 1
        }
        setFunction("__gc", qualified: "__gc") { args in
            args.engine.objects.collect(at: 1, args.L)
            return 0
        }
        extra?(engine)
        engine.objects.setMetatable(for: kind, L)
    }

    /// `__index`: methods are looked up in a table without entering Swift; other keys go to
    /// the Swift `fields` function (a method call's lookup was measured at ~2,000 instructions
    /// through Swift, ~100 through this C function).
    private func pushIndex(methods: [String: Int32], nativeMethods: [String: (OpaquePointer) -> Void],
                           fields: Int32, _ L: OpaquePointer) {
        guard !methods.isEmpty || !nativeMethods.isEmpty else {
            Self.pushFunction(fields, L)
            return
        }
        lua_createtable(L, 0, Int32(methods.count + nativeMethods.count))
        for (name, id) in methods {
            Self.pushFunction(id, L)
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
            let object: T = try args.object(1, "self", "\(Engine.withArticle(type)) (call it as \(type):\(name)(...))")
            return try body(args, object)
        }
    }

    /// Pushes a cached method function by id (a static: index functions on hot paths call it).
    static func pushFunction(_ id: Int32, _ L: OpaquePointer) {
        cktrampoline_push_swift_function(L, id)
    }
}
