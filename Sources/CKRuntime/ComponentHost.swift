import CKCore
import CKLua

/// A mounted tree of components (SPEC §5's host), made by ``Runtime/mount(_:model:responders:)-(_,ScriptValue,_)``.
/// Its methods are the Lua host's (`host:update(model)`, `host:flush()`, …), each one call into
/// Lua under the runtime's limits.
///
/// Named `ComponentHost`, not `Host`, so that it does not clash with Foundation's `Host` in a
/// program that imports both (attack lib 15); ``Host`` remains as another name for it.
public final class ComponentHost {
    /// The Lua host, read only through ``object(_:)`` (holding the runtime). A `var` only so
    /// that `deinit` can move it out uncopied, its one write: no access can overlap that, so none
    /// is checked at run time (`Action.send` paid 76 instructions for its check).
    @exclusivity(unchecked)
    private var luaHost: Value
    /// The Lua host, for a call that holds the runtime.
    func object(_: borrowing Held) -> Value { luaHost }
    /// The runtime the host lives in.
    public let runtime: Runtime

    /// Its responders' Swift handlers: released by ``destroy()`` and when the host goes.
    let handlers: SwiftHandlers

    init(_ object: Value, runtime: Runtime, handlers: SwiftHandlers) {
        luaHost = object
        self.runtime = runtime
        self.handlers = handlers
    }

    /// A host dropped without ``destroy()`` is destroyed when the runtime's next call into Lua
    /// starts (its controllers told, as by `destroy()`; no Lua runs from a `deinit`): mounted,
    /// the runtime would otherwise keep it, its tree and its responders for the runtime's life.
    /// Errors of that destroy are dropped. Dropped on another thread while the runtime is inside
    /// a call there, it is handed over untouched and let go by the runtime's next call.
    deinit {
        var taken = Value.nil
        swap(&taken, &luaHost)
        runtime.destroyWhenSafe(consume taken, handlers)
    }

    /// The core host, for a call that holds the runtime.
    func core(_ held: borrowing Held) -> CKCore.Host? {
        guard case .object(let object) = luaHost else { return nil }
        return object as? CKCore.Host
    }

    /// The core host, or ``ErrorID/hostDestroyed`` once it was destroyed: what every method that
    /// reads the host without a call into Lua asks (the Lua host's methods check for themselves).
    func liveCore(_ held: borrowing Held, _ what: String) throws(ScriptError) -> CKCore.Host? {
        let core = core(held)
        if let core, core.isDestroyed {
            throw ScriptError(.hostDestroyed, "\(what) on a destroyed host; make a new one with runtime.mount")
        }
        return core
    }

    /// Calls the glue function `name` with `arguments` of the Lua host (the host alone by
    /// default), then `values` marshalled in the same turn, holding the runtime. One array
    /// literal: prepending the host to an array of the rest cost `host.send` ~880 instructions.
    @discardableResult
    func glue(_ name: String, then values: [ScriptValue] = [],
              _ arguments: (_ host: Value) -> [Value] = { [$0] }) throws(ScriptError) -> [Value] {
        try runtime.exclusive { held throws(ScriptError) -> [Value] in
            try runtime.glue(held, name, arguments(object(held)), then: values)
        }
    }

    /// How many builds the host has made (`host.generation`). ``ErrorID/notMainThread`` while
    /// another thread is inside a call (which may be building it).
    public var generation: Int {
        get throws(ScriptError) { try runtime.exclusive { held throws(ScriptError) in core(held)?.generation ?? 0 } }
    }
    /// Whether the host is mounted. ``ErrorID/notMainThread`` while another thread is inside a call.
    public var isMounted: Bool {
        get throws(ScriptError) { try runtime.exclusive { held throws(ScriptError) in core(held)?.isMounted ?? false } }
    }

    /// Rebuilds with a new model (`host:update(model)`); a failed build keeps the previous one
    /// and throws ``ErrorID/buildFailed``.
    public func update(model: ScriptValue) throws(ScriptError) {
        try glue("update", then: [model])
    }

    /// Rebuilds with a new model given as an `Encodable` value (a struct as a table of its fields).
    public func update(model: some Encodable) throws(ScriptError) {
        try update(model: try ScriptValue.encoding(model))
    }

    /// Builds the host's pending (async) state updates (`host:flush()`).
    public func flush() throws(ScriptError) { try glue("flush") }
    /// Mounts the host again after ``unmount()`` (`host:mount()`).
    public func mount() throws(ScriptError) { try glue("mount") }
    /// Unmounts the host's tree (`host:unmount()`).
    public func unmount() throws(ScriptError) { try glue("unmount") }
    /// Destroys the host: its controllers are invalidated and every later call is
    /// ``ErrorID/hostDestroyed`` (a second destroy does nothing).
    /// Its Swift handlers, and what they captured, are released now.
    public func destroy() throws(ScriptError) {
        try runtime.exclusive { held throws(ScriptError) in
            defer { if core(held)?.isDestroyed != false { handlers.release() } }
            try runtime.glue(held, "destroy", [object(held)])
        }
    }

    /// Taps the first component `query` finds as `host:tap(query)` does (SPEC §7); returns the
    /// number of actions sent.
    @discardableResult
    public func tap(_ query: String) throws(ScriptError) -> Int {
        let results = try glue("tap") { [$0, .string(query)] }
        if case .int(let n)? = results.first { return Int(n) }
        return 0
    }

    /// Fires the control actions registered for the event `name` on the view of the first
    /// component `query` finds (`host:controlEvent(query, name, text)`); returns the number sent.
    /// `text` is the `Event`'s `text` (a text field's whole text after a change), nil for none.
    @discardableResult
    public func controlEvent(_ query: String, _ name: String, text: String? = nil) throws(ScriptError) -> Int {
        let results = try glue("controlEvent") { [$0, .string(query), .string(name), text.map { .string($0) } ?? .nil] }
        if case .int(let n)? = results.first { return Int(n) }
        return 0
    }

    /// Tells the controllers the tree will appear (`host:appear()`: `componentTreeWillAppear`).
    public func appear() throws(ScriptError) { try glue("appear") }
    /// Tells the controllers the tree disappeared (`host:disappear()`: `componentTreeDidDisappear`).
    public func disappear() throws(ScriptError) { try glue("disappear") }

    /// Sends the action `selector` typed `types` (`["int", "Point"]`; SPEC §6.4's names) to
    /// `target`, with `arguments` after the sender, as `action:send(sender, ...)` does: the
    /// arguments are checked and converted against `types` (``ErrorID/badArgument``), the
    /// responder chain is walked, sync state updates are built before it returns. Returns
    /// whether a responder handled it (false only under `ck.config.unhandledAction` "warn" or
    /// "ignore"; by default an unhandled action is ``ErrorID/unhandledAction``). To send the
    /// same action often, make it once with ``action(_:types:to:)``.
    @discardableResult
    public func send(_ selector: String, types: [String] = [], to target: ActionTarget,
                     arguments: [ScriptValue] = []) throws(ScriptError) -> Bool {
        let results = try glue("send", then: [ComponentHost.typeList(types)] + arguments) {
            [$0, .string(target.kind), .string(target.query), .string(selector)]
        }
        if case .bool(let handled)? = results.first { return handled }
        return false
    }

    /// Makes the action `selector` typed `types` for `target` once, to send many times: the
    /// query runs and the action is made now (``ErrorID/noMatch``, ``ErrorID/unknownType``,
    /// ``ErrorID/doesNotRespond`` are thrown here). The found component stays the sender; a
    /// scope action reaches the newest component of its scope at each send.
    public func action(_ selector: String, types: [String] = [], to target: ActionTarget) throws(ScriptError) -> Action {
        try runtime.exclusive { held throws(ScriptError) -> Action in
            let made = try runtime.glue(held, "prepare", [object(held), .string(target.kind), .string(target.query), .string(selector)],
                                        then: [ComponentHost.typeList(types)])
            return Action(action: made.first ?? .nil, sender: made.count > 1 ? made[1] : .nil, host: self)
        }
    }

    static func typeList(_ types: [String]) -> ScriptValue {
        types.isEmpty ? .nil : .array(types.map(ScriptValue.string))
    }
}

/// The earlier name of ``ComponentHost``. It clashes with Foundation's `Host` where a file
/// imports both (write `ComponentHost`, or `CKRuntime.Host`, there).
public typealias Host = ComponentHost

/// A typed action made once by ``ComponentHost/action(_:types:to:)``, sent from Swift many times.
public final class Action {
    // Read only holding the runtime; `var`s only so that `deinit` can move them out uncopied,
    // their one write: no access can overlap that, so none needs a run-time check.
    @exclusivity(unchecked)
    private var action: Value
    @exclusivity(unchecked)
    private var sender: Value
    let host: ComponentHost
    /// The runtime the action lives in.
    public var runtime: Runtime { host.runtime }

    init(action: Value, sender: Value, host: ComponentHost) {
        self.action = action
        self.sender = sender
        self.host = host
    }

    /// Its Lua values are moved out, not copied (a copy retains a core object, whose count is
    /// not atomic, on whatever thread this runs), and let go where the runtime is used.
    deinit {
        var value = Value.nil
        swap(&value, &action)
        runtime.releaseWhenSafe(consume value)
        value = .nil
        swap(&value, &sender)
        runtime.releaseWhenSafe(consume value)
    }

    private func preparedAction(_: borrowing Held) -> Value { action }
    private func preparedSender(_: borrowing Held) -> Value { sender }

    /// Sends the action with `arguments` after the sender, as ``ComponentHost/send(_:types:to:arguments:)``
    /// does; returns whether a responder handled it.
    @discardableResult
    public func send(_ arguments: [ScriptValue] = []) throws(ScriptError) -> Bool {
        try runtime.exclusive { held throws(ScriptError) -> Bool in
            _ = try host.liveCore(held, "Action.send")
            let results = try runtime.glue(held, "sendPrepared", [preparedAction(held), preparedSender(held)], then: arguments)
            if case .bool(let handled)? = results.first { return handled }
            return false
        }
    }
}

extension ScriptValue {
    static func encoding(_ value: some Encodable) throws(ScriptError) -> ScriptValue {
        do { return try ScriptValue(encoding: value) } catch let error as ScriptError { throw error } catch {
            throw ScriptError(.badArgument, "the model could not be encoded: \(error)")
        }
    }
}

extension Runtime {
    /// A Swift value as a Lua value, made under a turn (its tables count against the memory
    /// limit), before its time limit starts: the program's own data is not the script's time.
    func lua(_ held: borrowing Held, _ value: ScriptValue) throws(ScriptError) -> Value {
        let marshal = held.marshal
        var made: Value = .nil
        return try turn(held, untimed: { () throws(LuaError) in made = try marshal.lua(value) }) { _ throws(LuaError) in made }
    }
}
