import CKCore
import CLua
import CLuaShims

/// Tables as data for inspection: a view's attributes listed for the tree (values as JSON:
/// `Inspection`).
extension TablesAdapter: ScriptTableListing {
    func entries(_ table: ScriptRef) throws -> [(name: String, key: Value, value: Value)] {
        let L = values.runningThread
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (table as! LuaRef).push(L)
        var out: [(name: String, key: Value, value: Value)] = []
        lua_pushnil(L)
        while LuaStack(L).next(base + 1) {
            out.append((try Inspection.keyText(at: -2, values.lua, values.runtime.limits, L), values.value(at: -2, L), values.value(at: -1, L)))
            ckmacros_pop(L, 1)
        }
        if out.count > 1 { out.sort { $0.name < $1.name } }
        return out
    }

    func keyNames(_ table: ScriptRef) -> [String] {
        let L = values.runningThread
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (table as! LuaRef).push(L)
        var out: [String] = []
        lua_pushnil(L)
        while LuaStack(L).next(base + 1) {
            ckmacros_pop(L, 1)
            if lua_type(L, -1) == LUA_TSTRING, let k = values.lua.string(at: -1, on: L) {
                out.append(k)
            } else {
                lua_pushvalue(L, -1)
                out.append("[" + values.lua.describe(at: -1, on: L) + "]")
                ckmacros_pop(L, 1)
            }
        }
        return out.sorted()
    }
}

/// JSON string quoting.
public enum JSON {
    public static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if ch.value < 0x20 {
                    let hex = String(ch.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }
}
