import CKCore
import CKLua

/// A Lua value held for Swift: a component class, a provider function, a table. It stays alive
/// while this object does. Give it to ``Runtime/mount(_:model:responders:)-(_,ScriptValue,_)`` as the provider,
/// call it with ``call(_:)``, or read it with ``value()``.
public final class ScriptObject {
    let raw: Value
    /// The runtime the value lives in (kept alive by this object).
    public let runtime: Runtime

    init(_ raw: Value, runtime: Runtime) {
        self.raw = raw
        self.runtime = runtime
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
