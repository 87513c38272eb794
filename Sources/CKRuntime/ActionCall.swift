import CKCore

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
    /// The Swift responder whose handler receives the call (``HostResponder/name``), for messages.
    let responder: String

    init(selector: String, sender: String?, arguments: [ScriptValue], responder: String = "") {
        self.selector = selector
        self.sender = sender
        self.arguments = arguments
        self.responder = responder
    }

    /// The argument at `index` (``ScriptValue/nil`` past the end).
    public subscript(index: Int) -> ScriptValue { arguments.indices.contains(index) ? arguments[index] : .nil }

    /// The argument at `index` decoded as `type` (a struct argument as a `Decodable` struct).
    /// One that does not decode is ``ErrorID/badArgument`` naming the responder, the selector,
    /// the sender, the argument (`#1` is the first after the sender) and the Swift type.
    public func argument<T: Decodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        do {
            return try self[index].decode(T.self)
        } catch let error as ScriptError where error.id == .badArgument {
            let handler = responder.isEmpty ? "the Swift handler" : "\(responder)'s handler"
            let from = sender.map { " (sent from \(Excerpt.text($0)))" } ?? ""
            let why = error.message.dropFirst(error.id.description.count + 1)
            throw ScriptError(.badArgument, "\(handler) for \"\(Excerpt.text(selector))\"\(from) takes argument #\(index + 1) as \(T.self), which it does not decode as: \(why); send a value of that shape, or take the argument as another type")
        }
    }
}
