import CKCore
import CKLua

/// An error from the runtime or from a script: a catalogued id, the message and the Lua
/// traceback.
///
/// Every error has an id: the message starts with `[id]` as every ckrun error does
/// (`[unhandledAction] …`). An error a script raised itself (`error("boom")`) is
/// ``ErrorID/actionFailed`` when an action's handler raised it during a send (the message names
/// the handler, then the script's own message), and ``ErrorID/scriptFailed`` anywhere else
/// (`[scriptFailed] app.lua:3: boom`).
///
/// Since the id became non-optional, code that unwrapped it (`error.id?.rawValue`,
/// `if let id = error.id`) reads it directly (`error.id.rawValue`); `error.id == .timeout` is
/// unchanged.
public struct ScriptError: Error, Sendable, CustomStringConvertible {
    /// The catalogued id at the start of the message.
    public let id: ErrorID
    /// The message, starting with `[id]`.
    public let message: String
    /// Lua's stack traceback where the error was raised (empty when none was taken).
    public let traceback: String

    /// The limit that stopped the script (``ErrorID/timeout``, ``ErrorID/memoryLimit``,
    /// ``ErrorID/stackLimit``), if one did: ``id`` names the place it struck instead when that
    /// place wraps its errors (``ErrorID/buildFailed`` for a render or a state update,
    /// ``ErrorID/actionFailed``, ``ErrorID/timerFailed``, a controller's callback), and the
    /// limit's own line, naming the script's file:line, follows in ``message``.
    public var limit: ErrorID? {
        let limits: [ErrorID] = [.timeout, .memoryLimit, .stackLimit]
        return limits.first { id in
            let tag = "\(id) "
            return message.hasPrefix(tag) || message.contains("\n" + tag) || message.contains(": " + tag)
        }
    }

    /// The message, then the traceback.
    public var description: String { traceback.isEmpty ? message : message + "\n" + traceback }

    /// An error of the catalogued `id` with your own `detail`: its ``message`` is `[id] detail`.
    ///
    /// A Swift handler throws one to refuse a send the way a Lua handler does with
    /// `error("[badArgument] …")`; it reaches whoever sent the action as it is (id and
    /// message), where any other error a handler throws becomes ``ErrorID/actionFailed``:
    ///
    /// ```swift
    /// controller.on("pick") { call in
    ///     guard call[0].intValue != nil else { throw ScriptError(.badArgument, "pick needs an index") }
    /// }
    /// ```
    ///
    /// Say what went wrong and what to do, as the catalogue's own messages do.
    @_disfavoredOverload  // inside the library, `.badArgument` is the Catalogue's
    public init(_ id: ErrorID, _ detail: String) {
        self.init(Catalogue(rawValue: id.rawValue) ?? .scriptFailed, detail)
    }

    /// An error of the catalogued `id`: `[id] detail`. With ``init(_:otherwise:)`` the only
    /// ways the library makes one, so none is without an id.
    init(_ id: Catalogue, _ detail: String, traceback: String = "") {
        self.init(id: ErrorID(id), message: id.message(detail), traceback: traceback)
    }

    /// A Lua error: its own id when its message starts with a catalogued one, else `otherwise`'s
    /// in front of the message.
    init(_ error: LuaError, otherwise: Catalogue) {
        if let raw = error.id, let id = Catalogue(rawValue: raw) {
            self.init(id: ErrorID(id), message: error.message, traceback: error.traceback)
        } else {
            self.init(otherwise, error.message, traceback: error.traceback)
        }
    }

    /// A send's handler raised `error`, which has no id of its own: `[actionFailed] <the
    /// handler> raised: <its message>` (`line` is the handler's `[actionFailed] … raised:`).
    init(_ error: LuaError, handlerLine line: String) {
        self.init(id: .actionFailed, message: line + " " + error.message, traceback: error.traceback)
    }

    /// `message` starts with `[id]` (the callers above make sure).
    /// Every message and traceback is worded for the program (``LibraryWording``).
    private init(id: ErrorID, message: String, traceback: String) {
        self.id = id
        self.message = LibraryWording.message(message)
        self.traceback = LibraryWording.traceback(traceback)
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

    init(_ id: Catalogue) { rawValue = id.rawValue }

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
    /// A call passed or returned more values than a Lua stack holds, or calls nested too deep.
    public static let stackLimit = ErrorID(.stackLimit)
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
    /// A runtime with a timeout was called while another runtime's call held the process's one
    /// timer (on another thread, or around this call); no Lua ran.
    public static let timerBusy = ErrorID(.timerBusy)
    /// A script raised an error of its own (no catalogued id in its message) outside a send's
    /// handler: in a chunk ``Runtime/load(string:name:)`` ran, a function ``ScriptObject/call(_:)``
    /// called, a render's helper called from a host method.
    public static let scriptFailed = ErrorID(.scriptFailed)
    /// A lifecycle callback of a controller raised (the pass ran whole).
    public static let callbackFailed = ErrorID(.callbackFailed)
    /// Ctrl-C (SIGINT) stopped the running script.
    public static let interrupted = ErrorID(.interrupted)
}
