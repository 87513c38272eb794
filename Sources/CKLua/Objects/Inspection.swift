import CKCore
import CLua
import CLuaShims

/// Values shown to people: one line for dumps, the REPL and the live view (`describe`), and
/// JSON for `ckrun tree --format json` (`json`). Reads only; a table's metamethods run
/// protected (`protectedNext`, `lua.describe`). The bridge's inspection surface: nothing else.
struct Inspection {
    unowned(unsafe) let engine: Engine

    /// A one-line rendering of a value for dumps: `{count = 1, title = "x"}`, as much of a table
    /// as `shape` says (`TableText`; a props or state view is its table). A string whose
    /// quoting would pass `--memory-limit` is `[memoryLimit]` before Swift builds it (the dump,
    /// `ckrun tree` and the live view hold their text outside Lua's count).
    func describe(_ v: Value, shape: DumpShape = .short) throws -> String {
        let L = engine.runningThread
        if case .string(let s) = v {
            try reserveSwiftText(Self.quotingBytes * s.utf8.count)
            return DumpText.quoted(s.utf8)
        }
        let base = LuaStack(L).top
        engine.values.push(v, L)
        defer { LuaStack(L).top = base }  // a limit may stop a table's walk with entries pushed
        _ = engine.values.unwrapReadOnlyView(at: -1, L)    // a view is the table it stands for
        guard LuaStack(L).isTable(-1) else { return try entryText(at: -1, L) }
        var text = TableText(self, shape, L)
        return try text.text()
    }

    /// Swift bytes quoting a string for the dump may take, a byte: 4 (`\255`), twice that while
    /// the text grows (measured: a 6 MB string of NULs peaked at 159 MB with 4).
    static let quotingBytes = 8

    /// Checks that `bytes` Swift is about to build for the script fit its memory limit (with
    /// what Lua holds): a loop's ticks cannot see a string before it is built.
    func reserveSwiftText(_ bytes: Int) throws {
        if bytes > 4096 { try engine.runtime.limits.check(bytes) }
    }

    /// `lua.dumpQuoted` within the limit.
    private func dumpQuoted(at i: Int32, _ L: OpaquePointer) throws -> String {
        try reserveSwiftText(Self.quotingBytes * LuaStack(L).stringLength(i))
        return engine.lua.dumpQuoted(at: i, on: L)
    }

    /// A string key as written in a table constructor: a name as it is, else `["…"]`.
    func dumpKey(at i: Int32, _ L: OpaquePointer) throws -> String {
        try reserveSwiftText(Self.quotingBytes * LuaStack(L).stringLength(i))
        if let name = engine.lua.name(at: i, on: L), let first = name.utf8.first, !(0x30...0x39).contains(first),
           name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
            return name
        }
        return "[" + engine.lua.dumpQuoted(at: i, on: L) + "]"
    }

    /// A value inside a table that is not one: a string quoted, anything else its `tostring`.
    func entryText(at i: Int32, _ L: OpaquePointer) throws -> String {
        LuaStack(L).isString(i) ? try dumpQuoted(at: i, L) : engine.lua.describe(at: i, on: L)
    }

    /// A value as JSON: tables with keys 1…n are arrays, other tables objects (keys as
    /// strings, sorted); functions and runtime objects are their `tostring`; cycles and
    /// nesting past 16 levels are the string "<cycle>" / "{...}". Ticks the limits per value,
    /// counting `holding` (the caller's text) and what it built; a string whose quoting would
    /// pass `--memory-limit` is `[memoryLimit]` before Swift builds it.
    func json(_ value: Value, holding: Int) throws -> String {
        let L = engine.runningThread, stack = LuaStack(L), base = stack.top
        engine.values.push(value, L)
        defer { stack.top = base }  // a limit may stop the walk with a key and value pushed
        var walk = JSONWalk(built: holding)
        return try json(at: lua_gettop(L), depth: 0, &walk, L)
    }

    private func json(at i: Int32, depth: Int, _ walk: inout JSONWalk, _ L: OpaquePointer) throws -> String {
        try engine.runtime.limits.tick(holding: walk.built)
        switch lua_type(L, i) {
        case LUA_TNIL, LUA_TNONE: return "null"
        case LUA_TBOOLEAN: return lua_toboolean(L, i) != 0 ? "true" : "false"
        case LUA_TNUMBER:
            if lua_isinteger(L, i) != 0 { return String(lua_tointegerx(L, i, nil)) }
            let d = lua_tonumberx(L, i, nil)
            return d.isFinite ? String(d) : "null"
        case LUA_TSTRING:
            // Decoded, then quoted: at most 7 bytes a byte (`\u0000` after the decoded copy).
            try reserveSwiftText(walk.built + 7 * LuaStack(L).stringLength(i))
            return walk.counted(JSON.quote(engine.lua.string(at: i, on: L) ?? ""))
        case LUA_TUSERDATA where engine.values.unwrapReadOnlyView(at: i, L) != nil:   // a view is the table it stands for
            return try json(at: i, depth: depth, &walk, L)
        case LUA_TTABLE:
            guard let p = lua_topointer(L, i) else { return "null" }
            if walk.seen.contains(p) { return JSON.quote("<cycle>") }
            if depth >= 16 { return JSON.quote("{...}") }
            walk.seen.insert(p)
            defer { walk.seen.remove(p) }
            return try jsonTable(at: i, depth: depth, &walk, L)
        default: return walk.counted(JSON.quote(engine.lua.describe(at: i, on: L)))
        }
    }

    private func jsonTable(at i: Int32, depth: Int, _ walk: inout JSONWalk, _ L: OpaquePointer) throws -> String {
        let n = LuaStack(L).listLength(i)
        var entries: [(String, String)] = []
        var isArray = true
        lua_pushnil(L)
        while LuaStack(L).next(i) {
            let key: String
            if lua_isinteger(L, -2) != 0, case let k = Int(lua_tointegerx(L, -2, nil)), k >= 1, k <= n {
                key = String(k)
            } else {
                isArray = false
                lua_pushvalue(L, -2)
                try reserveSwiftText(walk.built + 7 * LuaStack(L).stringLength(-1))
                key = walk.counted(engine.lua.describe(at: -1, on: L))
                ckmacros_pop(L, 1)
            }
            entries.append((key, try json(at: lua_gettop(L), depth: depth + 1, &walk, L)))
            ckmacros_pop(L, 1)
        }
        if isArray && entries.count == n && n > 0 {
            return "[" + entries.sorted { Int($0.0)! < Int($1.0)! }.map(\.1).joined(separator: ", ") + "]"
        }
        return "{" + entries.sorted { $0.0 < $1.0 }.map { JSON.quote($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }
}

/// What a JSON rendering has seen (tables on the way down) and built so far.
private struct JSONWalk {
    var built: Int
    var seen: Set<UnsafeRawPointer> = []

    mutating func counted(_ text: String) -> String {
        built += text.utf8.count
        return text
    }
}
