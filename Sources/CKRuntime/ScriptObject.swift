import CKCore
import CKLua

/// A Lua value held for Swift: a component class, a provider function, a table. It stays alive
/// while this object does. Give it to ``Runtime/mount(_:model:responders:)-(_,ScriptValue,_)`` as the provider,
/// call it with ``call(_:)``, or read it with ``value()``. It belongs to its ``runtime``: another
/// runtime refuses it (``ErrorID/badArgument``).
public final class ScriptObject {
    // Private: read only holding the runtime (`raw(_:)`); another runtime reaches it only
    // through `raw(_:in:as:)`, which refuses it (attack break 04: a class of one Lua state built
    // in another's segfaulted). Its one write is `deinit`'s move, so no access is checked.
    @exclusivity(unchecked)
    private var raw: Value
    /// The runtime the value lives in (kept alive by this object).
    public let runtime: Runtime
    /// The Lua type name: `"function"`, `"table"`, `"nil"`, or a runtime object's (`"ComponentClass"`).
    /// Read when the value reached Swift (a value's type never changes), so it needs no call.
    public let typeName: String
    /// Whether the value is nil.
    public let isNil: Bool
    /// Whether Lua might call it: not nil, a boolean, a number or a string.
    private let mayBeCallable: Bool

    init(_ held: borrowing Held, _ raw: Value, runtime: Runtime) {
        self.raw = raw
        self.runtime = runtime
        typeName = raw.typeName
        isNil = raw.isNil
        switch raw {
        case .nil, .bool, .int, .number, .string: mayBeCallable = false
        default: mayBeCallable = true
        }
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
    func raw(_ held: borrowing Held, in other: Runtime, as role: String) throws(ScriptError) -> Value {
        guard other === runtime else {
            throw ScriptError(.badArgument, "\(role) (\(Article.with(typeName))) belongs to another Runtime; a Lua value lives in the runtime that made it: load or look it up in this runtime (load(string:), global(_:))")
        }
        return raw
    }

    /// The Lua value, for a call that holds its runtime.
    private func raw(_: borrowing Held) -> Value { raw }

    /// The value as a ``ScriptValue`` (a table's tables converted too; a table that contains
    /// itself is ``ErrorID/badArgument``).
    public func value() throws(ScriptError) -> ScriptValue {
        try runtime.exclusive { held throws(ScriptError) -> ScriptValue in
            let marshal = held.marshal
            let value = raw(held)
            return try runtime.turn(held) { _ throws(LuaError) in try marshal.swift(value) }
        }
    }

    /// Calls the value (a function, or anything with `__call`) with `arguments` under the
    /// runtime's limits; returns its results. A value that cannot be called (nil, a boolean, a
    /// number, a string) is ``ErrorID/badArgument``; a table or object without `__call` is
    /// ``ErrorID/scriptFailed`` with Lua's own message after `call():`, its place.
    @discardableResult
    public func call(_ arguments: [ScriptValue] = []) throws(ScriptError) -> [ScriptValue] {
        try checkCallable()
        do {
            return try runtime.exclusive { held throws(ScriptError) -> [ScriptValue] in
                let marshal = held.marshal
                let function = raw(held)
                var values: [Value] = []
                return try runtime.turn(held, untimed: { () throws(LuaError) in values = try marshal.lua(arguments) }) { turn throws(LuaError) in
                    try marshal.swift(try turn.call(function, values))
                }
            }
        } catch where error.id == .scriptFailed && error.traceback.isEmpty && error.message.contains("attempt to call") {
            // No frame ran: the call itself failed, and its place is this Swift call.
            let detail = error.message.dropFirst(error.id.description.count + 1)
            throw ScriptError(.scriptFailed, "call(): \(detail): the \(typeName) has no __call in its metatable; call a function, or a table or object whose metatable has __call")
        }
    }

    /// `[badArgument]` for a value Lua cannot call whatever a script did: nil, a boolean, a
    /// number, a string. A table or object without `__call` fails in Lua (`[scriptFailed]`):
    /// runtime objects' metatables are locked, so only the call can tell.
    private func checkCallable() throws(ScriptError) {
        guard mayBeCallable else {
            throw ScriptError(.badArgument, "call(): the value is \(Article.with(typeName)), which Lua cannot call; call a function, or a table or object whose metatable has __call")
        }
    }
}
