import CKCore

/// The run loop: `ck.flush()`, `ck.after(seconds, fn)`, `ck.cancel(id)`, `ck.advance(seconds)`,
/// `ck.runUntilIdle()` and `ck.now()`. Time is virtual, so runs are deterministic.
enum RunLoopBinding {
    static func register(in engine: Engine) {
        engine.setFunction("flush", qualified: "ck.flush") { args in
            try args.engine.runtime.flush()
            return 0
        }
        engine.setFunction("after", qualified: "ck.after") { args in
            let seconds = try args.seconds(1, "seconds")
            let e = args.engine
            // A pending timer is a root, whoever set it (a render too): its function is the registry's.
            let f = try e.withHome(.registry) { try args.function(2, "fn") }
            let site = e.runtime.currentLocation() ?? ""
            let id = e.runtime.loop.after(seconds, site: site) { [unowned e] in try e.call(f, [], results: 0) }
            LuaStack(args.L).push(id)
            return 1
        }
        engine.setFunction("cancel", qualified: "ck.cancel") { args in
            args.engine.runtime.loop.cancel(try args.integer(1, "id"))
            return 0
        }
        engine.setFunction("advance", qualified: "ck.advance") { args in
            let seconds = try args.seconds(1, "seconds")
            let r = args.engine.runtime
            LuaStack(args.L).push(try r.runTimers(until: r.loop.now + seconds))
            return 1
        }
        engine.setFunction("runUntilIdle", qualified: "ck.runUntilIdle") { args in
            LuaStack(args.L).push(try args.engine.runtime.runUntilIdle())
            return 1
        }
        engine.setFunction("now", qualified: "ck.now") { args in
            LuaStack(args.L).push(args.engine.runtime.loop.now)
            return 1
        }
    }
}
