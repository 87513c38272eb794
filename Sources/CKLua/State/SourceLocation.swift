import CKCore
import CLua
import CLuaShims

/// `file:line` of script code, for messages that point at the user's code.
extension Engine {
    /// The innermost Lua function running on the current thread (a render calling `Class{}`).
    func currentScriptLocation() -> String? {
        let L = runningThread
        var ar = lua_Debug()
        var level: Int32 = 0
        while lua_getstack(L, level, &ar) != 0 {
            if lua_getinfo(L, "Sl", &ar) != 0, ar.currentline > 0 { return Self.shortSource(&ar) + ":\(ar.currentline)" }
            level += 1
        }
        return nil
    }

    /// Where a function was defined (`app.lua:12`), or nil for a C function or a callable
    /// table (a spy: `lua_getinfo` takes only functions).
    func definition(of f: LuaRef) -> String? {
        let L = self.runningThread
        var ar = lua_Debug()
        f.push(L)
        guard lua_type(L, -1) == LUA_TFUNCTION else { lua_settop(L, -2); return nil }
        guard lua_getinfo(L, ">S", &ar) != 0, ar.linedefined > 0 else { return nil }
        return Self.shortSource(&ar) + ":\(ar.linedefined)"
    }

    /// Where the function at `index` was defined, or nil when it is not a Lua function.
    func definition(ofFunctionAt index: Int32, _ L: OpaquePointer) -> String? {
        guard lua_type(L, index) == LUA_TFUNCTION else { return nil }
        var ar = lua_Debug()
        lua_pushvalue(L, index)
        guard lua_getinfo(L, ">S", &ar) != 0, ar.linedefined > 0 else { return nil }
        return Self.shortSource(&ar) + ":\(ar.linedefined)"
    }

    private static func shortSource(_ ar: inout lua_Debug) -> String {
        withUnsafeBytes(of: &ar.short_src) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
    }

    /// "a number" / "an integer": a value's type with its article.
    static func withArticle(_ typeName: String) -> String { Article.with(typeName) }
}
