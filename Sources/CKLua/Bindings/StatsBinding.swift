import CKCore

/// `ck.stats()`: what the runtime holds, for soak tests and the curious.
enum StatsBinding {
    static func register(in engine: Engine) {
        engine.functions.setFunctions([("stats", stats)], prefix: "ck.")
    }

    /// The figures, by name.
    static func figures(of e: Engine) -> [(String, Int)] {
        [("luaBytes", e.lua.memoryInUse),
         ("heapBytes", Engine.heapBytes),
         ("handles", e.liveHandles),
         ("references", e.liveReferences),
         ("arenas", e.refs.liveArenas),
         ("arenaValues", e.refs.arenaValues),
         ("rescues", e.refs.rescues),
         ("expectedRescues", e.refs.expectedRescues),
         ("hosts", e.runtime.trackedHostCount),
         ("timers", e.runtime.loop.pendingTimers),
         ("plannedSends", e.runtime.callState.pointee.plannedSends),
         ("viewMoves", e.runtime.viewMoves)] + (e.frontEndFigures?() ?? [])
    }

    static func stats(_ args: Arguments) throws -> Int32 {
        let L = args.L
        LuaStack(L).newTable(array: 0, fields: 12)
        for (name, value) in figures(of: args.engine) {
            LuaStack(L).push(value)
            LuaStack(L).setField(name, of: -2)
        }
        return 1
    }
}
