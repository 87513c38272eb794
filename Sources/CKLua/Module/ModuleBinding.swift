import CKCore

/// Builds the `ck` table, registers it as `package.loaded.ck` and the global `ck`.
enum ModuleBinding {
    static func open(in engine: Engine) {
        let L = engine.lua.L
        LuaStack(L).newTable(array: 0, fields: 64)
        engine.values.pushString("0.1.0", L)
        LuaStack(L).setField("version", of: -2)
        engine.defaultWarning = engine.functions.registerFunction("ck.config.onWarning") { args in
            ProcessOutput.err(args.engine.lua.describe(at: 1, on: args.L) + "\n")
            return 0
        }
        ComponentClassBinding.register(in: engine)
        ComponentBinding.register(in: engine)
        ControllerBinding.register(in: engine)
        HostBinding.register(in: engine)
        ViewBinding.register(in: engine)
        ActionBinding.register(in: engine)
        ResponderBinding.register(in: engine)
        ConfigBinding.register(in: engine)
        RunLoopBinding.register(in: engine)
        BuiltinsBinding.register(in: engine)
        StatsBinding.register(in: engine)
        ConfigBinding.lockModule(in: engine)
        engine.lua.pushGlobal("package")
        LuaStack(L).field("loaded", of: -1)
        LuaStack(L).pushValue(at: -3)
        LuaStack(L).setField("ck", of: -2)
        LuaStack(L).pop(2)
        engine.lua.setGlobal("ck")
    }
}
