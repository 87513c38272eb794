import CKCore
import CLua
import CLuaShims

/// Builds the `ck` table, registers it as `package.loaded.ck` and the global `ck`.
enum ModuleBinding {
    static func open(in engine: Engine) {
        let L = engine.lua.L
        lua_createtable(L, 0, 64)
        engine.pushString("0.1.0", L)
        lua_setfield(L, -2, "version")
        engine.defaultWarning = engine.registerFunction("ck.config.onWarning") { args in
            FileStream.standardError.write(args.engine.lua.describe(at: 1, on: args.L) + "\n")
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
        lua_getglobal(L, "package")
        lua_getfield(L, -1, "loaded")
        lua_pushvalue(L, -3)
        lua_setfield(L, -2, "ck")
        ck_pop(L, 2)
        engine.lua.setGlobal("ck")
    }
}
