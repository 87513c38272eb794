import CKCore

/// A turn: one piece of work the command line does for the user that may run user code (Lua
/// functions or metamethods) — an input line and the printing of its results, one timer and the
/// build after it, a reload, a Tab completion, formatting a tree. Only `Engine.turn` makes one,
/// and the command line reaches user code only through a turn's methods, so every such call
/// holds the turn's limits: `--timeout` counted from the turn's start, `--memory-limit`, and
/// Ctrl-C (`[interrupted]`). Non-copyable and only lent to the body: no turn outlives its own.
/// (The test runner gives each piece of a test file its own limit in Lua instead.)
public struct Turn: ~Copyable {
    /// Unowned: a turn lives inside a call on its engine. (A strong reference here crashes the
    /// Swift 6.3 optimizer when it inlines `Engine.turn`: "Cannot initialize a nonCopyable type
    /// with a guaranteed value".)
    unowned(unsafe) let engine: Engine

    fileprivate init(_ engine: Engine) { self.engine = engine }

    /// Calls `function` with `arguments`; returns its results.
    @discardableResult
    public func call(_ function: Value, _ arguments: [Value] = []) throws(LuaError) -> [Value] {
        try engine.tools.call(function, arguments)
    }

    /// Builds every host's pending updates (`ck.flush()`).
    public func flush() throws(LuaError) {
        try engine.protect { try engine.runtime.flush() }
    }

    /// A value as dumps show it, as much of a table as `shape` says (the live view's short form by
    /// default); `[memoryLimit]` when its text would pass the limit.
    public func describe(_ value: Value, shape: DumpShape = .short) throws -> String {
        try engine.inspection.describe(value, shape: shape)
    }

    /// A value as JSON (`ckrun tree --format json`), ticking the limits with `holding` bytes
    /// already built; `[memoryLimit]` when its text would pass the limit.
    public func json(_ value: Value, holding: Int) throws -> String { try engine.inspection.json(value, holding: holding) }

    /// A table key as a JSON object's name, as `json` names a table's entries (`"[1]"`, `"[true]"`).
    public func jsonName(_ key: Value) throws -> String { try engine.inspection.jsonName(key) }

    /// `host:dump()`'s text.
    public func dump(_ host: Host) throws(LuaError) -> String {
        var text = ""
        try engine.protect { text = try host.dump(describe: { try engine.inspection.describe($0, shape: .whole) }) }
        return text
    }

    /// The mounted tree as data (its attributes' names may run a key's `__tostring`).
    public func tree(of host: Host) throws(LuaError) -> TreeNode? {
        var root: TreeNode?
        try engine.protect { root = try host.tree() }
        return root
    }

    /// A catalogued warning through `ck.config.onWarning` (the script's handler, if it set one).
    public func warn(_ id: Catalogue, _ detail: String, at location: String?) {
        engine.runtime.onWarning(id.message(detail, at: location))
    }
}

extension Engine {
    /// Runs `body` as a turn. A turn started inside another (a Swift function the REPL's Lua
    /// calls) is part of it and shares its deadline; when the outermost one ends, a Ctrl-C raised
    /// in it ends (pending until then: every instruction raised it again, ckwatchdog.c), and one
    /// that came too late for the code it was meant for is forgotten.
    ///
    /// `untimed` runs first, in the turn but before its `--timeout` starts: the embedding
    /// program's own data made into Lua values (a library call's arguments) is not the script's
    /// time; a million entries, converted in Swift that no hook stops, ended the program as a C
    /// function held past the limit (sweep15, atk-lib 03). Ctrl-C and the memory limit hold there.
    public func turn<T>(untimed: (() throws(LuaError) -> Void)? = nil,
                        _ body: (borrowing Turn) throws(LuaError) -> T) throws(LuaError) -> T {
        let outermost = !isInTurn
        isInTurn = true
        defer {
            if outermost {
                isInTurn = false
                clearInterrupt()
            }
        }
        if let untimed { try withDeadline(nil, untimed) }
        return try withLimits { () throws(LuaError) in try body(Turn(self)) }
    }

    /// A turn of its own even when started inside another: each timer the REPL's `.advance`
    /// fires gets the whole `--timeout`, as on the run loop. The enclosing turn's deadline is
    /// paused meanwhile and goes on with the time it had left, so one timer stopped by
    /// `[timeout]` leaves the next timers (and the enclosing line) their own time.
    /// A Ctrl-C raised in it ends with it, as with any turn (the advance stops, the build after
    /// the timer runs): inside a turn a raised one is pending until its turn ends (ckwatchdog.c).
    /// A library engine's timers share the call's deadline instead (`timersShareTheCallsLimit`).
    public func ownTurn<T>(_ body: (borrowing Turn) throws(LuaError) -> T) throws(LuaError) -> T {
        defer { lua.endRaisedInterrupt() }
        guard !timersShareTheCallsLimit, hasDeadline, let end = deadlineEnd else { return try turn(body) }
        let left = ContinuousClock.now.duration(to: end)
        lua.clearDeadline()
        hasDeadline = false
        defer {
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18
            lua.setDeadline(max(seconds, 0))
            hasDeadline = true
            deadlineEnd = .now + left
        }
        return try turn(body)
    }

    /// How every turn of the app loop ends, whatever its body did (returned, raised, was stopped
    /// by `[timeout]` or Ctrl-C): the updates it queued and left unbuilt are built now, in a turn
    /// of their own (SPEC §3: async updates are built by the app loop when idle; §6.3: a raising
    /// callback's are kept for the next turn), the build's error going to `report`. An input
    /// line, a tap, a reload, the start-up (`ckrun app.lua` and `ckrun tree` alike) and each timer
    /// (`AppRunner.fireTimers`, also when its function raised) end here, and nothing else
    /// builds the app loop's pending updates.
    public func endTurn(report: (LuaError) -> Void) {
        guard runtime.hasPendingUpdates else { return }
        do throws(LuaError) {
            try ownTurn { turn throws(LuaError) in try turn.flush() }
        } catch {
            report(error)
        }
    }
}
