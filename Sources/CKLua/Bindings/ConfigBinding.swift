import CKCore

/// `ck.config`: a proxy table over the runtime's settings (`unhandledAction`, `onWarning`,
/// `onTrace`, `maxDepth`) so that an assignment takes effect at once and bad values are refused;
/// `pairs(ck.config)` visits the settings that hold a value (the REPL's `=ck.config` shows them).
enum ConfigBinding {
    static func register(in engine: Engine) {
        let L = engine.lua.L
        LuaStack(L).newTable(array: 0, fields: 0)
        LuaStack(L).newTable(array: 0, fields: 4)
        // Both are named ck.config in errors (`ck.config: argument #3 (onTrace) …`).
        engine.functions.setFunction("__index", qualified: "ck.config", index)
        engine.functions.setFunction("__newindex", qualified: "ck.config", newindex)
        let nextSetting = engine.functions.registerFunction("ck.config") { args in
            LuaStack(args.L).top = 2
            guard LuaStack(args.L).next(1) else { LuaStack(args.L).pushNil(); return 1 }
            return 2
        }
        engine.functions.setFunction("__pairs", qualified: "ck.config") { args in
            try pairs(args, next: nextSetting)
        }
        engine.values.pushString("locked", L)
        LuaStack(L).setField("__metatable", of: -2)
        LuaStack(L).setMetatable(of: -2)
        LuaStack(L).setField("config", of: -2)
    }

    /// Locks `ck.config` (the `ck` table on top): it is read through the module's `__index`, and
    /// assigning another value to it is `[badArgument]` instead of a table nothing reads.
    static func lockModule(in engine: Engine) {
        let L = engine.lua.L
        let refuse = engine.functions.registerFunction("ck.config") { args in
            throw RuntimeError(.badArgument, "ck.config cannot be replaced (given \(args.typeName(3))): the runtime "
                + "reads its settings from ck.config itself, never from a new table; set its fields instead, "
                + "e.g. ck.config.unhandledAction = \"warn\"")
        }
        LuaStack(L).newTable(array: 0, fields: 3)      // ck, metatable
        LuaStack(L).field("config", of: -2)            // ck, metatable, proxy
        engine.functions.setKeepingNewindex(of: -2, key: "config", kept: -1, refuse: refuse)
        LuaStack(L).newTable(array: 0, fields: 1)      // ck, metatable, proxy, __index
        LuaStack(L).pushValue(at: -2)
        LuaStack(L).setField("config", of: -2)
        LuaStack(L).setField("__index", of: -3)
        LuaStack(L).pop(1)
        engine.values.pushString("locked", L)
        LuaStack(L).setField("__metatable", of: -2)
        LuaStack(L).setMetatable(of: -2)
        LuaStack(L).pushNil()
        LuaStack(L).setField("config", of: -2)
    }

    /// The settings' names, in the order `pairs` visits them.
    static let settings = ["maxDepth", "onTrace", "onWarning", "unhandledAction"]

    /// `ck.config.key`.
    static func index(_ args: Arguments) throws -> Int32 {
        pushSetting(setting(args), args.engine, args.L)
        return 1
    }

    private static func pushSetting(_ name: String, _ e: Engine, _ L: OpaquePointer) {
        switch name {
        case "unhandledAction": e.values.pushString(e.runtime.unhandledAction.rawValue, L)
        case "onWarning": if let h = e.warningHandler { h.push(L) } else { SwiftFunctions.pushFunction(e.defaultWarning, L) }
        case "onTrace": if let h = e.traceHandler { h.push(L) } else { LuaStack(L).pushNil() }
        case "maxDepth": LuaStack(L).push(e.runtime.maxDepth)
        default: LuaStack(L).pushNil()
        }
    }

    /// `pairs(ck.config)`: the iterator over a new table of the settings as they are now (a
    /// setting without a value, onTrace unset, is left out as a table leaves out a nil).
    private static func pairs(_ args: Arguments, next: Int32) throws -> Int32 {
        let L = args.L, stack = LuaStack(L)
        guard stack.reserve(4) else { throw RuntimeError(.stackLimit, "no room on the stack for pairs(ck.config)") }
        SwiftFunctions.pushFunction(next, L)
        stack.newTable(array: 0, fields: settings.count)
        for name in settings {
            pushSetting(name, args.engine, L)
            stack.setField(name, of: -2)
        }
        stack.pushNil()
        return 3
    }

    /// The key at 2, at most `Excerpt.limit` bytes of it converted (a long key is no setting).
    private static func setting(_ args: Arguments) -> String {
        LuaStack(args.L).isString(2) ? args.engine.lua.shown(at: 2, on: args.L) : args.typeName(2)
    }

    /// `ck.config.key = value`: takes effect at once; a bad value or key is refused.
    static func newindex(_ given: Arguments) throws -> Int32 {
        var args = given
        args.isAssignment = true
        let e = args.engine
        let name = setting(args)   // bounded (Excerpt)
        switch name {
        case "unhandledAction":
            let s = try args.string(3, "unhandledAction")
            guard let p = Runtime.UnhandledPolicy(rawValue: s) else { throw args.bad(3, "unhandledAction", "\"error\", \"warn\" or \"ignore\"") }
            e.runtime.unhandledAction = p
        case "onWarning":
            e.warningHandler = args.isNil(3) ? nil : try args.callable(3, "onWarning")
        case "onTrace":
            setTraceHandler(args.isNil(3) ? nil : try args.callable(3, "onTrace"), in: e)
        case "maxDepth":
            let n = try args.integer(3, "maxDepth")
            guard n >= 1 else { throw args.bad(3, "maxDepth", "a positive integer") }
            e.runtime.maxDepth = n
        default:
            throw RuntimeError(.badArgument, "ck.config has no setting \"\(name)\"; the settings are unhandledAction, onWarning, onTrace and maxDepth")   // bounded: setting() cut it
        }
        return 0
    }

    /// `[configCallbackFailed]` for a `ck.config` function's error: its message and traceback.
    static func callbackFailure(_ error: Error, _ name: String, given: String) -> String {
        "\(ScriptErrors.attributing(error, .configCallbackFailed, "\(name) (given \(given))"))"
    }

    /// `ck.config.onTrace = fn`: a tracer keeping no entries calls `fn` with each.
    static func setTraceHandler(_ handler: LuaRef?, in e: Engine) {
        e.traceHandler = handler
        if let t = e.traceTracer {
            if e.runtime.tracer === t { e.runtime.tracer = t.parent }
            e.traceTracer = nil
        }
        guard let handler else { return }
        let t = Tracer(parent: e.runtime.tracer, keepsEntries: false)
        t.onEntry = { [unowned e] entry in
            do { try e.values.call(handler, [.object(entry)], results: 0) } catch {
                e.warn(ConfigBinding.callbackFailure(error, "ck.config.onTrace", given: "a trace entry"))
            }
        }
        e.runtime.tracer = t
        e.traceTracer = t
    }
}
