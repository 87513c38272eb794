import CKCore
import CLua
import CLuaShims

/// Tables as data for inspection: a view's attributes listed for the tree, and values as JSON
/// for `ckrun tree --format json`.
extension TablesAdapter: ScriptTableListing {
    func entries(_ table: ScriptRef) -> [(name: String, value: Value)] {
        let L = engine.runningThread
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (table as! LuaRef).push(L)
        var out: [(name: String, value: Value)] = []
        lua_pushnil(L)
        while lua_next(L, base + 1) != 0 {
            if lua_type(L, -2) == LUA_TSTRING, let k = engine.lua.string(at: -2, on: L) {
                out.append((k, engine.value(at: -1, L)))
            }
            ck_pop(L, 1)
        }
        return out.sorted { $0.name < $1.name }
    }

    func keyNames(_ table: ScriptRef) -> [String] {
        let L = engine.runningThread
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (table as! LuaRef).push(L)
        var out: [String] = []
        lua_pushnil(L)
        while lua_next(L, base + 1) != 0 {
            ck_pop(L, 1)
            if lua_type(L, -1) == LUA_TSTRING, let k = engine.lua.string(at: -1, on: L) {
                out.append(k)
            } else {
                lua_pushvalue(L, -1)
                out.append("[" + engine.lua.describe(at: -1, on: L) + "]")
                ck_pop(L, 1)
            }
        }
        return out.sorted()
    }
}

extension Engine {
    /// A value as JSON: tables with keys 1…n are arrays, other tables objects (keys as
    /// strings, sorted); functions and runtime objects are their `tostring`; cycles and
    /// nesting past 16 levels are the string "<cycle>" / "{...}".
    func json(_ value: Value) -> String {
        let L = self.runningThread
        push(value, L)
        defer { ck_pop(L, 1) }
        var seen: Set<UnsafeRawPointer> = []
        return json(at: lua_gettop(L), depth: 0, seen: &seen, L)
    }

    private func json(at i: Int32, depth: Int, seen: inout Set<UnsafeRawPointer>, _ L: OpaquePointer) -> String {
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return "null"
        case LUA_TBOOLEAN: return lua_toboolean(L, i) != 0 ? "true" : "false"
        case LUA_TNUMBER:
            if lua_isinteger(L, i) != 0 { return String(lua_tointegerx(L, i, nil)) }
            let d = lua_tonumberx(L, i, nil)
            return d.isFinite ? String(d) : "null"
        case LUA_TSTRING: return JSON.quote(lua.string(at: i, on: L) ?? "")
        case LUA_TTABLE:
            guard let p = lua_topointer(L, i) else { return "null" }
            if seen.contains(p) { return JSON.quote("<cycle>") }
            if depth >= 16 { return JSON.quote("{...}") }
            seen.insert(p)
            defer { seen.remove(p) }
            return jsonTable(at: i, depth: depth, seen: &seen, L)
        default: return JSON.quote(lua.describe(at: i, on: L))
        }
    }

    private func jsonTable(at i: Int32, depth: Int, seen: inout Set<UnsafeRawPointer>, _ L: OpaquePointer) -> String {
        let n = LuaStack(L).listLength(i)
        var entries: [(String, String)] = []
        var isArray = true
        lua_pushnil(L)
        while lua_next(L, i) != 0 {
            let key: String
            if lua_isinteger(L, -2) != 0, case let k = Int(lua_tointegerx(L, -2, nil)), k >= 1, k <= n {
                key = String(k)
            } else {
                isArray = false
                lua_pushvalue(L, -2)
                key = lua.describe(at: -1, on: L)
                ck_pop(L, 1)
            }
            entries.append((key, json(at: lua_gettop(L), depth: depth + 1, seen: &seen, L)))
            ck_pop(L, 1)
        }
        if isArray && entries.count == n && n > 0 {
            return "[" + entries.sorted { Int($0.0)! < Int($1.0)! }.map(\.1).joined(separator: ", ") + "]"
        }
        return "{" + entries.sorted { $0.0 < $1.0 }.map { JSON.quote($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
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
