/// An action as a Swift handler receives it: the arguments after the sender, already checked
/// against the action's types, converted (`int` as ``ScriptValue/int(_:)``, `number` as
/// ``ScriptValue/double(_:)``, a struct as a dictionary of exactly its declared fields) and,
/// for a demoted action, filled with the zeros of the types it dropped, so a handler always
/// receives the full signature of the action its prop or attribute declared.
public struct ActionCall: Sendable {
    /// The action's selector.
    public let selector: String
    /// The sender's name as the responder chain prints it (`"Button"`), or its Lua type name.
    public let sender: String?
    /// The arguments after the sender.
    public let arguments: [ScriptValue]

    /// The argument at `index` (``ScriptValue/nil`` past the end).
    public subscript(index: Int) -> ScriptValue { arguments.indices.contains(index) ? arguments[index] : .nil }

    /// The argument at `index` decoded as `type` (a struct argument as a `Decodable` struct).
    public func argument<T: Decodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        try self[index].decode(T.self)
    }
}
