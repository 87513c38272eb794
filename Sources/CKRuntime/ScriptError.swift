import CKCore
import CKLua

/// An error from the runtime or from a script: a catalogued id, the message and the Lua
/// traceback.
///
/// The message starts with `[id]` as every ckrun error does (`[unhandledAction] …`); ``id`` is
/// that id, or nil for an error a script raised itself (`error("boom")`).
public struct ScriptError: Error, Sendable, CustomStringConvertible {
    /// The catalogued id at the start of the message, if it has one.
    public let id: ErrorID?
    /// The message, starting with `[id]` when it has an id.
    public let message: String
    /// Lua's stack traceback where the error was raised (empty when none was taken).
    public let traceback: String

    /// The message, then the traceback.
    public var description: String { traceback.isEmpty ? message : message + "\n" + traceback }

    init(_ error: LuaError) {
        self.init(message: error.message, traceback: error.traceback)
    }

    init(message: String, traceback: String = "") {
        self.message = message
        self.traceback = traceback
        id = LuaError(message: message).id.flatMap(ErrorID.init(rawValue:))
    }

    init(_ id: Catalogue, _ detail: String) {
        self.init(message: id.message(detail))
    }
}

/// A stable error id from ckrun's catalogue (docs/errors.md): what went wrong and what to do.
public struct ErrorID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The id's name, as it appears in brackets (`unhandledAction`).
    public let rawValue: String

    /// The id named `rawValue`; nil when the catalogue has no such id.
    public init?(rawValue: String) {
        guard Catalogue(rawValue: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    private init(_ id: Catalogue) { rawValue = id.rawValue }

    /// `[name]`.
    public var description: String { "[\(rawValue)]" }
    /// What makes the runtime raise it (the catalogue's text).
    public var cause: String { Catalogue(rawValue: rawValue)?.cause ?? "" }
    /// What to do about it (the catalogue's text).
    public var fix: String { Catalogue(rawValue: rawValue)?.fix ?? "" }
    /// Every catalogued id.
    public static var all: [ErrorID] { Catalogue.allCases.map(ErrorID.init) }

    /// No responder on the chain handles the action's selector.
    public static let unhandledAction = ErrorID(.unhandledAction)
    /// A value given to a `ck` function or an action's send has the wrong type.
    public static let badArgument = ErrorID(.badArgument)
    /// A chunk given to ``Runtime/load(string:name:)`` or ``Runtime/load(file:)`` does not compile.
    public static let syntaxError = ErrorID(.syntaxError)
    /// A file to load does not exist or cannot be read.
    public static let cannotRead = ErrorID(.cannotRead)
    /// The script ran longer than the runtime's timeout.
    public static let timeout = ErrorID(.timeout)
    /// The script allocated more than the runtime's memory limit.
    public static let memoryLimit = ErrorID(.memoryLimit)
    /// Under the sandbox, the script called a function that is not allowed.
    public static let sandbox = ErrorID(.sandbox)
    /// A render, provider or state update raised while a host built; the build was rolled back.
    public static let buildFailed = ErrorID(.buildFailed)
    /// An action's handler raised during a send.
    public static let actionFailed = ErrorID(.actionFailed)
    /// A query matched no component.
    public static let noMatch = ErrorID(.noMatch)
    /// A query could not be parsed.
    public static let badQuery = ErrorID(.badQuery)
    /// A method of a destroyed host was called.
    public static let hostDestroyed = ErrorID(.hostDestroyed)
    /// An action or struct named an unknown type.
    public static let unknownType = ErrorID(.unknownType)
    /// A scope or target action names a method its class does not have.
    public static let doesNotRespond = ErrorID(.doesNotRespond)
    /// A scope action was made on a component whose class declares no scope.
    public static let noScope = ErrorID(.noScope)
    /// A timer's function raised while the clock ran.
    public static let timerFailed = ErrorID(.timerFailed)
    /// A timer kept re-arming itself, so the run of the clock stopped.
    public static let timerLoop = ErrorID(.timerLoop)
    /// The runtime was used from a thread other than the one that made it (its calls check
    /// before any Lua runs).
    public static let notMainThread = ErrorID(.notMainThread)
}
