import CKCore

/// The run loop: `ck.flush()`, `ck.act(fn, ...)`, `ck.after(seconds, fn)`, `ck.cancel(id)`, `ck.advance(seconds)`,
/// `ck.runUntilIdle()` and `ck.now()`. Time is virtual, so runs are deterministic.
enum RunLoopBinding {
    typealias Function = (Arguments) throws -> Int32

    /// `ck.*` functions.
    static var functions: [(String, Function)] {
        [("flush", flush), ("act", act), ("after", after), ("cancel", cancel), ("advance", advance),
         ("runUntilIdle", runUntilIdle), ("now", now)]
    }

    static func register(in engine: Engine) {
        engine.functions.setFunctions(functions, prefix: "ck.")
    }

    static func flush(_ args: Arguments) throws -> Int32 {
        try args.engine.runtime.flush()
        return 0
    }

    /// `ck.act(fn, ...)`: React's `act()`: calls `fn(...)` (anything callable, as `pcall` calls
    /// it: a luassert spy too), then builds what is pending as `ck.flush()` does, and returns
    /// `fn`'s results. An error of `fn` passes on, and what it queued waits for the next turn
    /// (SPEC §3: async updates are built at a turn, never implicitly at the end of a call, in a
    /// test as in a script). `fn` runs as one runtime call: a yield inside it is
    /// `[yieldAcrossRuntime]` naming ck.act, and drops what it queued (`CallRollback`).
    static func act(_ args: Arguments) throws -> Int32 {
        let e = args.engine
        if e.runtime.isRendering { throw e.runtime.updateDuringRender("ck.act()") }
        let f = try args.callable(1, "fn")
        let top = LuaStack(args.L).top
        let arguments = top < 2 ? [] : (2...top).map { args.value($0) }
        let results: [Value]
        do {
            results = try e.runtime.perform { try e.values.call(f, arguments, results: -1) }   // every result (LUA_MULTRET)
        } catch {
            throw ScriptErrors.namingYield(error, in: "the function given to ck.act")
        }
        try e.runtime.flush()
        try e.values.reserve(results.count, args.L)
        for v in results { e.values.push(v, args.L) }
        return Int32(results.count)
    }

    /// `ck.after(seconds, fn)`: a timer's id.
    static func after(_ args: Arguments) throws -> Int32 {
        let seconds = try args.seconds(1, "seconds")
        let e = args.engine
        // A pending timer is a root, whoever set it (a render too): its function is the registry's.
        let f = try e.ownership.withHome(.registry) { try args.callable(2, "fn") }
        let site = e.runtime.currentLocation() ?? ""
        let id = e.runtime.loop.after(seconds, site: site, call: e.runtime.currentCall) { [unowned e] in try e.values.call(f, [], results: 0) }
        LuaStack(args.L).push(id)
        return 1
    }

    static func cancel(_ args: Arguments) throws -> Int32 {
        args.engine.runtime.loop.cancel(try args.integer(1, "id"))
        return 0
    }

    /// `ck.advance(seconds)`: the number of timers fired.
    static func advance(_ args: Arguments) throws -> Int32 {
        let seconds = try args.seconds(1, "seconds")
        let r = args.engine.runtime
        LuaStack(args.L).push(try r.runTimers(until: r.loop.time(after: seconds)))
        return 1
    }

    static func runUntilIdle(_ args: Arguments) throws -> Int32 {
        LuaStack(args.L).push(try args.engine.runtime.runUntilIdle())
        return 1
    }

    static func now(_ args: Arguments) throws -> Int32 {
        LuaStack(args.L).push(args.engine.runtime.loop.current)
        return 1
    }
}
