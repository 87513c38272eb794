import CKCore
import CLua
import CLuaShims

/// `ck.stats()`: what the runtime holds, for soak tests and the curious.
enum StatsBinding {
    static func register(in engine: Engine) {
        engine.setFunction("stats", qualified: "ck.stats") { args in
            let e = args.engine, L = args.L
            e.releaseDeadControllers()
            lua_createtable(L, 0, 7)
            let fields: [(String, Int)] = [
                ("luaBytes", e.lua.memoryInUse),
                ("heapBytes", Engine.heapBytes),
                ("handles", e.liveHandles),
                ("references", e.liveReferences),
                ("hosts", e.runtime.allHosts.count),
                ("timers", e.runtime.loop.pendingTimers),
                ("plannedSends", e.runtime.callState.pointee.plannedSends),
            ]
            for (name, value) in fields {
                lua_pushinteger(L, lua_Integer(value))
                lua_setfield(L, -2, name)
            }
            return 1
        }
    }
}
