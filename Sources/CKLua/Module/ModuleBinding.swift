import CKCore
import CLua
import CLuaShims

/// Builds the `ck` table, registers it as `package.loaded.ck` and the global `ck`.
enum ModuleBinding {
    static func open(in engine: Engine) {
        let lua = engine.lua
        let L = lua.L
        lua_createtable(L, 0, 64)
        lua.push("0.1.0")
        lua_setfield(L, -2, "version")
        // package.loaded.ck = ck
        lua_getglobal(L, "package")
        lua_getfield(L, -1, "loaded")
        lua_pushvalue(L, -3)
        lua_setfield(L, -2, "ck")
        lua.pop(2)
        lua.setGlobal("ck")
    }
}
