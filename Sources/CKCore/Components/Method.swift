/// A handler or callback a class provides: its declared arity and how to call it.
public final class Method {
    public typealias Body = (_ receiver: Responder?, _ arguments: [Value]) throws -> Void

    public let name: String
    /// Declared parameters after `self` (after nothing, for a block action's function).
    public let parameterCount: Int
    public let isVararg: Bool
    /// Whether it receives every argument whatever its arity says: a callable table (a spy or
    /// stub), which records what it was called with. Its arity (the function a spy wraps) still
    /// decides `[tooManyArguments]`, never what it sees (a spy of `function() end` saw only self).
    public let receivesAll: Bool
    public let body: Body
    /// The script function `body` calls, receiver first when `takesReceiver`: a bridge that
    /// caches a send's resolution (`SendPlan`) calls it directly. nil for Swift bodies.
    public let script: ScriptRef?
    public let takesReceiver: Bool

    public init(name: String, parameterCount: Int, isVararg: Bool = false, receivesAll: Bool = false,
                script: ScriptRef? = nil, takesReceiver: Bool = true, body: @escaping Body) {
        self.name = name
        self.parameterCount = parameterCount
        self.isVararg = isVararg
        self.receivesAll = receivesAll
        self.script = script
        self.takesReceiver = takesReceiver
        self.body = body
    }

    /// How many of `count` arguments (the sender first) the handler receives (promotion).
    public func passedCount(of count: Int) -> Int { isVararg || receivesAll ? count : min(count, parameterCount) }

    /// Promotion: a handler taking fewer parameters receives fewer; a vararg one receives all.
    public func call(_ receiver: Responder?, _ arguments: [Value]) throws {
        if passedCount(of: arguments.count) == arguments.count {
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
    /// The error value itself when it was no string (a table, a luassert failure): raised
    /// again as it is where the error reaches the script unwrapped; `message` describes it.
    /// Unchecked: it never leaves the runtime's thread (errors cross no task boundary here).
    nonisolated(unsafe) public let value: Value?

    public init(message: String, traceback: String = "", value: Value? = nil) {
        self.message = message
        self.traceback = traceback
        self.value = value
    }

    public var description: String { message }
}
