import CKCore
import CKLua

/// A Lua value held for Swift: a component class, a provider function, a table. It stays alive
/// while this object does. Give it to ``Runtime/mount(_:model:responders:)-(_,ScriptValue,_)`` as the provider,
/// call it with ``call(_:)``, or read it with ``value()``. It belongs to its ``runtime``: another
/// runtime refuses it (``ErrorID/badArgument``).
public final class ScriptObject {
    // Private: another runtime reaches it only through `raw(in:as:)`, which refuses it (attack
    // break 04: a class of one Lua state built in another's segfaulted).
    private var raw: Value
    /// The runtime the value lives in (kept alive by this object).
    public let runtime: Runtime

    init(_ raw: Value, runtime: Runtime) {
        self.raw = raw
        self.runtime = runtime
    }

    /// The value's release writes to the Lua state: it waits for the next call when another
    /// thread is inside one (attack lib2 07: dropped beside a running script, it corrupted it).
    deinit {
        var value = Value.nil
        swap(&value, &raw)
        runtime.releaseWhenSafe(consume value)
    }

    /// The Lua value for a call into `other`'s Lua, `[badArgument]` unless it lives there: a Lua
    /// value is a reference into one state, meaningless (and unsafe) in any other. Every API
    /// that takes a ``ScriptObject`` reads it through this.
    func raw(in other: Runtime, as role: String) throws(ScriptError) -> Value {
        guard other === runtime else {
            throw ScriptError(.badArgument, "\(role) (a \(typeName)) belongs to another Runtime; a Lua value lives in the runtime that made it: load or look it up in this runtime (load(string:), global(_:))")
        }
        return raw
    }

    /// The Lua type name: `"function"`, `"table"`, `"nil"`, or a runtime object's (`"ComponentClass"`).
    public var typeName: String { raw.typeName }
    /// Whether the value is nil.
    public var isNil: Bool { raw.isNil }

    /// The value as a ``ScriptValue`` (a table's tables converted too; a table that contains
    /// itself is ``ErrorID/badArgument``).
    public func value() throws(ScriptError) -> ScriptValue {
        let marshal = runtime.marshal
        return try runtime.turn { _ throws(LuaError) in try marshal.swift(raw) }
    }

    /// Calls the value (a function, or anything with `__call`) with `arguments` under the
    /// runtime's limits; returns its results. A value that cannot be called (nil, a boolean, a
    /// number, a string) is ``ErrorID/badArgument``; a table or object without `__call` is
    /// ``ErrorID/scriptFailed`` with Lua's own message.
    @discardableResult
    public func call(_ arguments: [ScriptValue] = []) throws(ScriptError) -> [ScriptValue] {
        try checkCallable()
        let marshal = runtime.marshal
        let raw = raw
        return try runtime.turn { turn throws(LuaError) in
            try marshal.swift(try turn.call(raw, try marshal.lua(arguments)))
        }
    }

    /// `[badArgument]` for a value Lua cannot call whatever a script did: nil, a boolean, a
    /// number, a string. A table or object without `__call` fails in Lua (`[scriptFailed]`):
    /// runtime objects' metatables are locked, so only the call can tell.
    private func checkCallable() throws(ScriptError) {
        switch raw {
        case .nil, .bool, .int, .number, .string:
            throw ScriptError(.badArgument, "call(): the value is a \(typeName), which Lua cannot call; call a function, or a table or object whose metatable has __call")
        default: return
        }
    }
}
