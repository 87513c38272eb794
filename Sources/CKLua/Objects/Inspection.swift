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

    /// A key as written in a table constructor (`DumpText.key`): a name as it is, else
    /// `["a b"]`, `["end"]`, `[1.5]`, `[true]`.
    func keyText(at i: Int32, _ L: OpaquePointer) throws -> String {
        try Self.keyText(at: i, engine.lua, engine.runtime.limits, L)
    }

    /// `keyText` for a caller without the engine (the tree's attribute listing).
    static func keyText(at i: Int32, _ lua: LuaState, _ limits: WorkLimits, _ L: OpaquePointer) throws -> String {
        let stack = LuaStack(L)
        guard stack.isString(i) else {
            lua_pushvalue(L, i)
            defer { ckmacros_pop(L, 1) }
            return "[" + lua.describe(at: -1, on: L) + "]"
        }
        let bytes = quotingBytes * stack.stringLength(i)
        if bytes > 4096 { try limits.check(bytes) }
        var length = 0
        return DumpText.key(UnsafeRawBufferPointer(start: ckmacros_tostring(L, i, &length), count: length))
    }

    /// A value inside a table that is not one: a string quoted, anything else its `tostring`.
    func entryText(at i: Int32, _ L: OpaquePointer) throws -> String {
        LuaStack(L).isString(i) ? try dumpQuoted(at: i, L) : engine.lua.describe(at: i, on: L)
    }

    /// A value as JSON, whole (`JSONText`). Ticks the limits per value, counting `holding`
    /// (the caller's text) and what it built; a string whose quoting would pass
    /// `--memory-limit` is `[memoryLimit]` before Swift builds it.
    func json(_ value: Value, holding: Int) throws -> String {
        let L = engine.runningThread, stack = LuaStack(L), base = stack.top
        engine.values.push(value, L)
        defer { stack.top = base }  // a limit may stop the walk with entries pushed
        var text = JSONText(self, holding: holding, L)
        return try text.text()
    }

    /// A table key as a JSON object's name (`JSONText.name`): `"title"`, `"[1]"`, `"[true]"`.
    func jsonName(_ key: Value) throws -> String {
        let L = engine.runningThread, stack = LuaStack(L), base = stack.top
        engine.values.push(key, L)
        defer { stack.top = base }
        return try JSONText.name(at: -1, self, L)
    }
}
