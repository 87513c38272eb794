/// A handler or callback a class provides: its declared arity and how to call it.
public final class Method {
    public typealias Body = (_ receiver: Responder?, _ arguments: [Value]) throws -> Void

    public let name: String
    /// Declared parameters after `self` (after nothing, for a block action's function).
    public let parameterCount: Int
    public let isVararg: Bool
    public let body: Body

    public init(name: String, parameterCount: Int, isVararg: Bool = false, body: @escaping Body) {
        self.name = name
        self.parameterCount = parameterCount
        self.isVararg = isVararg
        self.body = body
    }

    /// Promotion: a handler taking fewer parameters receives fewer; a vararg one receives all.
    public func call(_ receiver: Responder?, _ arguments: [Value]) throws {
        if isVararg || arguments.count <= parameterCount {
            try body(receiver, arguments)
        } else {
            var prefix = arguments
            prefix.removeLast(arguments.count - parameterCount)
            try body(receiver, prefix)
        }
    }
}

/// An error raised by script code the core called: passed through unchanged.
public struct ScriptFailure: Error, CustomStringConvertible {
    public let message: String
    public let traceback: String

    public init(message: String, traceback: String = "") {
        self.message = message
        self.traceback = traceback
    }

    public var description: String { message }
}
