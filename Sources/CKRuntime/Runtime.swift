import CKCore
import CKLua
import Synchronization

/// A Lua state running ckrun's component runtime, driven from Swift.
///
/// A runtime loads Lua files and strings, mounts hosts of components (``mount(_:model:responders:)-(_,ScriptValue,_)``),
/// sends typed actions into them (``ComponentHost/send(_:types:to:arguments:)``) and receives actions in
/// Swift host responders (``HostResponder``). Every call into Lua runs under the limits given
/// at ``init(_:)``: the timeout counts from the start of each call from Swift, and a script that
/// passes a limit is stopped with ``ErrorID/timeout`` or ``ErrorID/memoryLimit`` while the
/// runtime stays usable.
///
/// ## Threading
/// A runtime is deliberately not `Sendable`: it belongs to one isolation domain (the thread,
/// actor or task that made it), which may run it on any thread, one call at a time: an actor
/// that owns a runtime can use it from every job, whichever pool thread runs it. A call from a
/// thread while another thread is inside a call fails with ``ErrorID/notMainThread``, before
/// any Lua runs; so does reading a property of the runtime's state (``now``,
/// ``ComponentHost/generation``: read with `try`). The timeout is watched by one process-wide timer, which one runtime's call
/// holds at a time: a call of a runtime with a timeout made meanwhile on another thread waits
/// for it (up to its own timeout; parallel tests each with a timed runtime take turns), and one
/// made inside that call on its thread, or still waiting when its timeout passed, is
/// ``ErrorID/timerBusy`` (a runtime without one runs, unstopped by Ctrl-C). While a call runs Lua, Ctrl-C (SIGINT) stops the
/// script with `[interrupted]`, as in `ckrun`.
public final class Runtime {
    /// Private: every other file reaches the engine through a ``Held`` (``exclusive(_:)``), so
    /// nothing reads the Lua state or the core without holding the runtime.
    private let engine: Engine
    /// The clock the timers follow (``Configuration/clock``).
    public let clock: Clock
    let started = ContinuousClock.now
    private var glue: Value = .nil
    /// The glue's functions by name, looked up on first use. Read and written only by
    /// `glueFunction`, holding the runtime, whose accesses never overlap (no Lua runs inside
    /// one), so none is checked at run time (~80 instructions of every call through the glue).
    @exclusivity(unchecked)
    private var glueFunctions: [String: Value] = [:]
    /// Hosts dropped without `destroy()`, destroyed when the next call into Lua starts: a
    /// `deinit` may run where no Lua may (inside a collection that released a Swift handler
    /// which held the host).
    private var droppedHosts: [Value] = []
    /// Whether `droppedHosts` holds any, read by every turn without an exclusivity check.
    private let hasDroppedHosts = Atomic<Bool>(false)
    /// Which thread is inside a call now, and what other threads let go meanwhile.
    let confinement = Confinement()
    /// Whether calls run under a timeout (not the library's own start-up): such a call that
    /// cannot have the process's timer is refused. Set once, by `init`.
    @exclusivity(unchecked)
    private var callsAreTimed = false
    /// Whether the engine's turns use the process's timer and Ctrl-C handler now (the engine's
    /// own flag, mirrored to write it only when it changes). Written only by an outermost call
    /// holding the runtime, so no access overlaps another.
    @exclusivity(unchecked)
    private var usesProcessSignals = true

    /// Makes a runtime with `configuration`'s limits, sandbox and clock.
    /// A timeout that is not a number of seconds above 0, or a memory limit below 1 MB, is
    /// ``ErrorID/badArgument``: nil is the only way to say "no limit".
    public init(_ configuration: Configuration = .init()) throws(ScriptError) {
        try configuration.validate()
        engine = Engine(configuration: .init(sandbox: configuration.sandbox, timeoutSeconds: configuration.timeout,
                                             memoryLimitMegabytes: configuration.memoryLimitMegabytes))
        clock = configuration.clock
        if let onWarning = configuration.onWarning { engine.warningSink = { onWarning(ScriptWarning($0)) } }
        engine.timersShareTheCallsLimit = true
        // The library's own start-up is no call of the program's: under a tiny timeout it timed
        // out in the glue, naming a loop that does not exist (attack lib2 13).
        engine.turnTimeoutSeconds = nil
        defer { engine.turnTimeoutSeconds = configuration.timeout }
        let engine = engine
        glue = try exclusive { held throws(ScriptError) -> Value in
            try first(held, of: chunk(held, LuaSource(bytes: PackageResources.Glue_lua), name: "=(CKRuntime glue)"),
                      arguments: [engine.tools.global("ck"), engine.hostPristineLibrary])
        }
        callsAreTimed = configuration.timeout != nil
    }

    /// Finalizers run under the timeout only while this runtime holds the process's timer and
    /// Ctrl-C handler: closing took them from whatever call held them (another runtime's untimed
    /// call lost its Ctrl-C, the interruption went to a state already closed).
    deinit {
        let taken = ProcessWatchdog.take()
        if !taken { engine.limitClosing(to: nil) }
        engine.close()
        if taken { ProcessWatchdog.giveBack() }
    }

    /// Runs `body` as one turn under the limits, its errors as ``ScriptError``s.
    /// On another thread than the runtime's it is `[notMainThread]`, before any Lua runs.
    func turn<T>(_ body: (borrowing Turn) throws(LuaError) -> T) throws(ScriptError) -> T {
        try exclusive { held throws(ScriptError) -> T in try turn(held, body) }
    }

    /// ``turn(_:)`` for a caller that holds the runtime already; `untimed` runs first, before
    /// the time limit starts (`Engine.turn(untimed:_:)`): the program's own data made into Lua
    /// values is not the script's time.
    func turn<T>(_ held: borrowing Held, untimed: (() throws(LuaError) -> Void)? = nil,
                 _ body: (borrowing Turn) throws(LuaError) -> T) throws(ScriptError) -> T {
        if hasDroppedHosts.load(ordering: .relaxed) { destroyDroppedHosts(held) }
        engine.runtime.clearHandlerFailure()
        do throws(LuaError) {
            return try engine.turn(untimed: untimed, body)
        } catch {
            throw afterRefusal(held, scriptError(error))
        }
    }

    /// Runs `body` holding the runtime on this thread (``Confinement``), with the ``Held`` that
    /// every read of the Lua state or the core asks for: the one way to the engine and to the
    /// Lua values library objects hold. `[notMainThread]` while another thread is inside a
    /// call, before any Lua runs. What other threads let go meanwhile is let go first, here.
    @inline(__always)
    func exclusive<T>(_ body: (borrowing Held) throws(ScriptError) -> T) throws(ScriptError) -> T {
        let entry = confinement.enter(engine.runtime)
        guard entry != .refused else {
            throw ScriptError(.notMainThread, "a Runtime was used from two threads at once; use each runtime from one isolation domain (a thread, an actor or a task), one call at a time")
        }
        defer { confinement.leave() }
        let watched = entry == .outermost ? try takeWatchdog() : false
        defer { if watched { ProcessWatchdog.giveBack() } }
        let held = Held(engine: engine)
        if entry == .outermost, confinement.somethingWaitsNow { letGoOfWaiting() }
        return try body(held)
    }

    /// Takes the process's timer and Ctrl-C handler for an outermost call (`ProcessWatchdog`):
    /// without them the call runs with neither, or is ``ErrorID/timerBusy`` when it has a
    /// timeout (nothing could enforce it). Returns whether it took them.
    /// A timed call waits for them while another thread's call holds them, up to its own timeout
    /// (the wait is part of the call); it is `[timerBusy]` only when that passes or when a call
    /// on this very thread holds them (a runtime called from inside another's call).
    private func takeWatchdog() throws(ScriptError) -> Bool {
        var taken = ProcessWatchdog.take()
        if !taken, callsAreTimed, let wait = engine.turnTimeoutSeconds { taken = ProcessWatchdog.take(waitingUpTo: wait) }
        if !taken, callsAreTimed {
            throw ScriptError(.timerBusy, "a Runtime with a timeout was called while another runtime's call held the process's one timer (around this call, or on another thread for longer than this call's timeout); call the other runtime outside this one's calls, or give runtimes that run long calls on several threads at once no timeout")
        }
        if usesProcessSignals != taken {
            usesProcessSignals = taken
            engine.useProcessSignals(taken)
        }
        return taken
    }

    /// Lets go, under the call, of what other threads (or a `deinit` inside a call) left
    /// waiting: values are released; hosts have their Swift handlers released, and unless
    /// destroyed already are destroyed at the next turn (no Lua runs from here: this may be a
    /// `deinit`'s call).
    private func letGoOfWaiting() {
        var waiting = confinement.take()
        waiting.values.removeAll()
        for dropped in waiting.hosts {
            dropped.handlers.release()
            if let core = dropped.host.object as? CKCore.Host, !core.isDestroyed {
                droppedHosts.append(dropped.host)
                hasDroppedHosts.store(true, ordering: .relaxed)
            }
        }
        waiting.hosts.removeAll()
    }

    /// `error`, after the garbage a call the memory limit stopped left is collected: what it made
    /// (a model too big for the limit) stayed in Lua's heap uncollected, and every later call
    /// was `[memoryLimit]` too (attack break 05). Every call into Lua ends through this.
    func afterRefusal(_ held: borrowing Held, _ error: ScriptError) -> ScriptError {
        if error.limit == .memoryLimit { engine.collectGarbage() }
        return error
    }

    /// An error that reached Swift, with its catalogued id: its own, or, for a script's own
    /// error, `[actionFailed]` naming the handler when a send's handler raised it, else
    /// `[scriptFailed]`.
    private func scriptError(_ error: LuaError) -> ScriptError {
        if error.id.flatMap(Catalogue.init(rawValue:)) == nil,
           let line = engine.runtime.lastHandlerFailure?.line(for: error.message) {
            return ScriptError(error, handlerLine: line)
        }
        return ScriptError(error, otherwise: .scriptFailed)
    }

    /// Takes a host dropped without `destroy()` (from its `deinit`, on any thread): it and its
    /// Swift handlers wait untouched until a call takes them (``letGoOfWaiting()``). The dropping
    /// thread reads and copies nothing of it: the core's objects count references without atomics.
    func destroyWhenSafe(_ host: consuming Value, _ handlers: SwiftHandlers) {
        confinement.keep(host: consume host, handlers)
        letGoNowIfOwnThread()
    }

    /// Lets a Lua value go (its release writes to the Lua state): here on the thread that made
    /// the last call when no call is under way, else when the next call starts.
    func releaseWhenSafe(_ value: consuming Value) {
        confinement.keep(consume value)
        letGoNowIfOwnThread()
    }

    /// Takes what waits at once, on the thread that made the last call: another thread's
    /// `deinit` never takes the runtime, so a call the owner starts meanwhile is never refused.
    private func letGoNowIfOwnThread() {
        guard confinement.isLastUsersThread else { return }
        try? exclusive { _ throws(ScriptError) in }
    }

    /// Destroys the hosts dropped since the last call (their callbacks' errors are dropped).
    private func destroyDroppedHosts(_ held: borrowing Held) {
        let dropped = droppedHosts
        droppedHosts = []
        hasDroppedHosts.store(false, ordering: .relaxed)
        for host in dropped { _ = try? glue(held, "destroy", [host]) }
    }

    /// Calls the glue function `name` with `arguments`, then `values` marshalled in the same
    /// turn; returns its results.
    @discardableResult
    func glue(_ held: borrowing Held, _ name: String, _ arguments: [Value], then values: [ScriptValue] = []) throws(ScriptError) -> [Value] {
        let function = glueFunction(name)
        let marshal = held.marshal
        guard !values.isEmpty else { return try turn(held) { turn throws(LuaError) in try turn.call(function, arguments) } }
        var all: [Value] = []
        return try turn(held, untimed: { () throws(LuaError) in all = try marshal.lua(values, after: arguments) }) { turn throws(LuaError) in
            try turn.call(function, all)
        }
    }

    /// ``glue(_:_:_:then:)`` holding the runtime for the call (arguments that are no library
    /// object's Lua values: those are read under the hold).
    @discardableResult
    func glue(_ name: String, _ arguments: [Value], then values: [ScriptValue] = []) throws(ScriptError) -> [Value] {
        try exclusive { held throws(ScriptError) -> [Value] in try glue(held, name, arguments, then: values) }
    }

    private func glueFunction(_ name: String) -> Value {
        if let f = glueFunctions[name] { return f }
        let f = engine.tools.field(name, of: glue)
        glueFunctions[name] = f
        return f
    }

    private func chunk(_ held: borrowing Held, _ source: LuaSource, name: String) throws(ScriptError) -> Value {
        do throws(LuaError) {
            return try engine.tools.load(source, name: name)
        } catch {
            throw afterRefusal(held, Runtime.loadError(error, compiling: String(name.dropFirst())))
        }
    }

    private func first(_ held: borrowing Held, of function: Value, arguments: [Value] = []) throws(ScriptError) -> Value {
        try turn(held) { turn throws(LuaError) in try turn.call(function, arguments).first ?? .nil }
    }

    /// A chunk that did not compile is `[syntaxError]`; one whose compiling passed the memory
    /// limit is `[memoryLimit]` naming `what` (no line of it ran); other load errors carry their own id.
    static func loadError(_ error: LuaError, compiling what: String) -> ScriptError {
        if error.id == Catalogue.memoryLimit.rawValue {
            return ScriptError(.memoryLimit, "compiling \(what) needs more memory than the limit allows (a large literal?); load less at once, or raise memoryLimitMegabytes")
        }
        guard error.id == nil, error.isSyntaxError else { return ScriptError(error, otherwise: .scriptFailed) }
        return ScriptError(.syntaxError, error.message)
    }
}

extension Runtime {
    /// Runs the Lua in `string` as a chunk called `name` (tracebacks say `name:LINE:`); returns
    /// its first result (a component class an app file returns, for example). A `name` holding a
    /// NUL byte is ``ErrorID/badArgument`` (C would cut it there).
    @discardableResult
    public func load(string: String, name: String = "string") throws(ScriptError) -> ScriptObject {
        let name = try CStringArgument.checked(name, "load(string:name:)'s name")
        return try exclusive { held throws(ScriptError) -> ScriptObject in
            let function = try chunk(held, LuaSource(bytes: string.utf8), name: "=" + name)
            return ScriptObject(held, try first(held, of: function), runtime: self)
        }
    }

    /// Runs the Lua file at `path` as `lua` runs a script (its bytes as they are); returns its
    /// first result. A missing or unreadable file is ``ErrorID/cannotRead``; a `path` holding a
    /// NUL byte is ``ErrorID/badArgument`` (C would open the file named before it).
    @discardableResult
    public func load(file path: String) throws(ScriptError) -> ScriptObject {
        let path = try CStringArgument.checked(path, "load(file:)'s path")
        return try exclusive { held throws(ScriptError) -> ScriptObject in
            let function: Value
            do throws(LuaError) { function = try engine.tools.loadFile(path) } catch { throw afterRefusal(held, Runtime.loadError(error, compiling: path)) }
            return ScriptObject(held, try first(held, of: function), runtime: self)
        }
    }

    /// Lets `require` find modules in `directory` (`directory/?.lua`, `directory/?/init.lua`),
    /// before the places `package.path` named. A directory whose name holds `;` or `?` (which
    /// `package.path` cannot quote) or a NUL byte is ``ErrorID/badArgument``.
    public func addSearchPath(_ directory: String) throws(ScriptError) {
        let directory = try CStringArgument.checked(directory, "addSearchPath's directory")
        guard !directory.contains(where: { $0 == ";" || $0 == "?" }) else {
            throw ScriptError(.badArgument, "addSearchPath: \(directory) holds ';' or '?', which package.path cannot quote; use a directory (or a link to it) whose name has neither")
        }
        try glue("addPath", [.string(directory)])
    }

    /// The global variable `name` (nil when unset), read raw.
    public func global(_ name: String) throws(ScriptError) -> ScriptObject {
        try exclusive { held throws(ScriptError) -> ScriptObject in
            let tools = engine.tools
            return ScriptObject(held, try turn(held) { _ in tools.global(name) }, runtime: self)
        }
    }

    /// Builds every host's pending updates (`ck.flush()`): async state updates wait for this.
    public func flush() throws(ScriptError) {
        try turn { turn throws(LuaError) in try turn.flush() }
    }
}

/// Proof that this thread holds its runtime: made only by ``Runtime/exclusive(_:)`` and lent to
/// its body, never copied or kept. The engine, and every Lua value a library object holds
/// (``ScriptObject``, ``ComponentHost``, ``Action``), are read only through one, so no public
/// property or method can read the Lua state or the core beside another thread's call.
struct Held: ~Copyable {
    unowned(unsafe) let engine: Engine

    fileprivate init(engine: Engine) { self.engine = engine }

    /// Values between Swift and Lua for this runtime.
    var marshal: Marshal { Marshal(engine: engine) }
}
