import CKCore

/// `ck.stats()`: what the runtime holds, for soak tests and the curious.
enum StatsBinding {
    static func register(in engine: Engine) {
        engine.setFunction("stats", qualified: "ck.stats") { args in
            let e = args.engine, L = args.L
            LuaStack(L).newTable(array: 0, fields: 10)
            let fields: [(String, Int)] = [
                ("luaBytes", e.lua.memoryInUse),
                ("heapBytes", Engine.heapBytes),
                ("handles", e.liveHandles),
                ("references", e.liveReferences),
                ("arenas", e.refs.liveArenas),
                ("arenaValues", e.refs.arenaValues),
                ("rescues", e.refs.rescues),
                ("hosts", e.runtime.allHosts.count),
                ("timers", e.runtime.loop.pendingTimers),
                ("plannedSends", e.runtime.callState.pointee.plannedSends),
                ("viewMoves", e.runtime.viewMoves),
            ]
            for (name, value) in fields {
                LuaStack(L).push(value)
                LuaStack(L).setField(name, of: -2)
            }
            return 1
        }
    }
}
