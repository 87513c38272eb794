import CKCore
import CKLua

/// A component a query found: what `host:find(query)` returns, as Swift values.
public struct ComponentSnapshot: Sendable {
    /// The class name (`"Row"`).
    public let name: String
    /// The `key` prop (``ScriptValue/nil`` when none).
    public let key: ScriptValue
    /// The scope's state when the component was built (``ScriptValue/nil`` without a scope).
    public let state: ScriptValue
    /// The props.
    public let props: ScriptValue
}

extension ComponentHost {
    /// `host:dump()`: one line per component with its class, `#identifier`, controller, view
    /// class and state (the text of `ckrun tree`).
    public func dump() throws(ScriptError) -> String {
        try runtime.exclusive { held throws(ScriptError) -> String in
            guard let core = try liveCore(held, "dump()") else { return "" }
            return try runtime.turn(held) { turn throws(LuaError) in try turn.dump(core) }
        }
    }

    /// The mounted tree as JSON (`ckrun tree --format json`).
    public func json() throws(ScriptError) -> String { try export { try TreeExport(host: $0).json(in: $1) } }

    /// The mounted tree as Graphviz dot (`ckrun tree --format dot`).
    public func dot() throws(ScriptError) -> String { try export { try TreeExport(host: $0).dot(in: $1) } }

    private func export(_ format: (CKCore.Host, borrowing Turn) throws -> String) throws(ScriptError) -> String {
        try runtime.exclusive { held throws(ScriptError) -> String in
            guard let core = try liveCore(held, "json() or dot()") else { return "" }
            return try runtime.turn(held) { turn throws(LuaError) in
                do { return try format(core, turn) } catch let e as LuaError { throw e } catch { throw LuaError(message: "\(error)") }
            }
        }
    }

    /// The first component `query` finds, depth first (`host:find(query)`), or nil.
    public func find(_ query: String) throws(ScriptError) -> ComponentSnapshot? {
        try runtime.exclusive { held throws(ScriptError) -> ComponentSnapshot? in
            let found = try runtime.glue(held, "find", [object(held), .string(query)])
            guard case .string(let name)? = found.first else { return nil }
            let marshal = held.marshal
            let names = ["key", "state", "props"]
            let of = "of the \(Excerpt.text(name)) find(\"\(Excerpt.text(query))\") found"
            let rest = try runtime.turn(held) { _ throws(LuaError) in
                try marshal.swift(Array(found.dropFirst()), names: { names.indices.contains($0) ? names[$0] : "result" }, context: of)
            }
            func at(_ i: Int) -> ScriptValue { rest.indices.contains(i) ? rest[i] : .nil }
            return ComponentSnapshot(name: name, key: at(0), state: at(1), props: at(2))
        }
    }

    /// How many components `query` finds (`#host:findAll(query)`).
    public func count(_ query: String) throws(ScriptError) -> Int {
        let found = try glue("count") { [$0, .string(query)] }
        if case .int(let n)? = found.first { return Int(n) }
        return 0
    }
}
