import CKCore

/// Tables for the library's marshalling (CKRuntime): a list made from Swift values, and a
/// table's entries read raw. Both tick the runtime's limits per item (rule 8: Swift loops over
/// script-sized data are bounded).
extension ToolCalls {
    /// A new table holding `items` at 1, 2, 3, … (nil items leave holes); `counted` also sets
    /// `n` to their number, as `table.pack` does, so the holes keep their places.
    public func list(_ items: [Value], counted: Bool = false) throws(LuaError) -> Value {
        let L = engine.lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        stack.newTable(array: items.count, fields: 0)
        for (i, item) in items.enumerated() {
            try engine.protect { try engine.runtime.limits.tick() }
            engine.values.push(item, L)
            stack.set(i + 1, into: -2)
        }
        if counted {
            engine.values.push(.int(Int64(items.count)), L)
            stack.setField("n", of: -2)
        }
        return engine.values.value(at: -1, L)
    }

    /// Every key and value of `table`, raw (no `__pairs`, `__index`), in traversal order; empty
    /// when `table` is not a table.
    public func entries(of table: Value) throws(LuaError) -> [(key: Value, value: Value)] {
        let L = engine.lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        engine.values.push(table, L)
        _ = engine.values.unwrapReadOnlyView(at: -1, L)     // props and state stand for their tables
        guard stack.isTable(-1) else { return [] }
        var out: [(key: Value, value: Value)] = []
        stack.pushNil()
        while stack.next(base + 1) {
            try engine.protect { try engine.runtime.limits.tick() }
            out.append((engine.values.value(at: -2, L), engine.values.value(at: -1, L)))
            stack.pop()
        }
        return out
    }
}
