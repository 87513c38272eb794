import CKCore
import CLua
import CLuaShims

/// What the command line (the REPL, the test runner, tools) may do with Lua: load chunks, call
/// functions and read fields, with Swift values in and out. Tables and functions come back as
/// references (`Value.table`, `.function`) kept alive while the `Value` is; every call runs on
/// the main thread under pcall with a traceback, and nothing here can raise. The engine's `tools`.
public struct ToolCalls {
    // Strong: one lives for one call (`engine.tools`), as `ClassBridge` does; none is on a hot path.
    let engine: Engine

    /// Compiles `source` (for a file's chunk, `@name`, a `#!` first line is skipped) into a
    /// function value.
    public func load(_ source: LuaSource, name: String) throws(LuaError) -> Value {
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        try engine.lua.load(source, name: name)
        return engine.values.value(at: -1, engine.lua.L)
    }

    /// Compiles the file at `path` from its bytes, as `loadfile` does (chunk name `@path`; a
    /// UTF-8 BOM and a `#` first line skipped; text only under `--sandbox`): no byte is decoded.
    public func loadFile(_ path: String) throws(LuaError) -> Value {
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        try engine.lua.loadFile(path)
        return engine.values.value(at: -1, engine.lua.L)
    }

    /// Calls `function` with `arguments`; returns all its results. Errors (including calling
    /// what is not a function) are `LuaError`s with the traceback.
    @discardableResult
    public func call(_ function: Value, _ arguments: [Value] = []) throws(LuaError) -> [Value] {
        let L = engine.lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        guard stack.reserve(arguments.count + 8) else {
            throw LuaError(message: Catalogue.stackLimit.message("\(arguments.count) values are more than a Lua stack holds; pass them in a table"))
        }
        engine.values.push(function, L)
        for a in arguments { engine.values.push(a, L) }
        try engine.refuseOvershoot(by: "the values given to the call (a model or arguments from Swift)")
        try engine.lua.call(arguments: Int32(arguments.count), results: -1)
        let n = stack.top - base
        return (0..<n).map { engine.values.value(at: base + 1 + $0, L) }
    }

    /// `table[name]`, raw (nil if `table` is not a table). A component's props are read from
    /// the table itself, not through the read-only view `push` hands scripts.
    public func field(_ name: String, of table: Value) -> Value {
        let L = engine.lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        if case .table(let r) = table { unsafeDowncast(r, to: LuaRef.self).push(L) } else { engine.values.push(table, L) }
        stack.field(name, of: -1)
        return engine.values.value(at: -1, L)
    }

    /// `_G[name]`, raw: a strict `_G` does not raise.
    public func global(_ name: String) -> Value {
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        engine.lua.pushGlobal(name)
        return engine.values.value(at: -1, engine.lua.L)
    }

    /// A Lua string of exactly these bytes (the REPL's input lines, never decoded): `.string`
    /// when they are UTF-8, else the Lua string itself (`.opaque`).
    public func string(bytes: [UInt8]) -> Value {
        let L = engine.lua.L
        bytes.withUnsafeBytes { raw in _ = lua_pushlstring(L, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count) }
        defer { ckmacros_pop(L, 1) }
        return engine.values.value(at: -1, L)
    }

    /// The strings of an array (raw; other items are skipped, as is anything but a table).
    public func strings(of array: Value) -> [String] {
        let L = engine.lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        engine.values.push(array, L)
        _ = engine.values.unwrapReadOnlyView(at: -1, L)     // props and state stand for their tables
        guard stack.isTable(-1) else { return [] }
        var out: [String] = []
        // A limit that stops the walk leaves the strings read so far.
        try? engine.values.forEachItem(ofList: base + 1, L) { _ in
            if let s = engine.lua.string(at: -1) { out.append(s) }
        }
        return out
    }
    /// The text of a string value, bytes that are not UTF-8 replaced (nil for other values).
    public func text(_ value: Value) -> String? {
        switch value {
        case .string(let s): return s
        case .opaque:
            let stack = LuaStack(engine.lua.L)
            let base = stack.top
            defer { stack.top = base }
            engine.values.push(value, engine.lua.L)
            return engine.lua.string(at: -1)
        default: return nil
        }
    }
    /// A string as the dump quotes it (`DumpText`, the one escaper: `"\255"` for a byte that is
    /// not UTF-8), or another value as the dump shows it; `[memoryLimit]` past the limit.
    public func quoted(_ value: Value) throws(LuaError) -> String {
        do { return try engine.inspection.describe(value) } catch let e as LuaError { throw e } catch {
            throw LuaError(message: "\(error)")
        }
    }
    /// The bytes of a string value carried as they are (`ByteText`), nil for other values.
    public func carriedText(_ value: Value) -> String? {
        if case .string(let s) = value { return s }
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        engine.values.push(value, engine.lua.L)
        return engine.lua.carriedText(at: -1)
    }

    /// A Lua function that runs `body` with its arguments and returns its results; a thrown
    /// `LuaError` is raised in Lua with its text (for tools that hand Swift functions to Lua).
    public func function(_ body: @escaping ([Value]) throws(LuaError) -> [Value]) -> Value {
        let stack = LuaStack(engine.lua.L)
        let base = stack.top
        defer { stack.top = base }
        engine.lua.pushCollectable { [unowned(unsafe) engine] call in
            let L = call.L
            let arguments = (0..<call.argumentCount).map { engine.values.value(at: $0 + 1, L) }
            do throws(LuaError) {
                let results = try body(arguments)
                guard LuaStack(L).reserve(results.count + 1) else { return call.raise(.stackLimit, "too many results") }
                for r in results { engine.values.push(r, L) }
                return Int32(results.count)
            } catch {
                return call.raise(error.description)
            }
        }
        return engine.values.value(at: -1, engine.lua.L)
    }

    /// The host ckrun runs as the app (the one it bound to the global `app`, whatever that global
    /// holds now), or nil: none, or destroyed.
    public func appHost() -> Value {
        guard let host = engine.appHostObject, !host.isDestroyed else { return .nil }
        let L = engine.lua.L
        engine.values.push(host, L)
        defer { LuaStack(L).pop(1) }
        return engine.values.value(at: -1, L)
    }

    /// A new table with these string-keyed fields.
    public func table(_ fields: [(String, Value)]) -> Value {
        engine.scriptTables.makeTable(fields)
    }

    /// A new table with these integer-keyed entries.
    public func table(integerKeyed entries: [(Int, Value)]) -> Value {
        engine.scriptTables.makeTable(integerKeyed: entries)
    }
}
