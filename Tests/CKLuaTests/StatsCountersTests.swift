import CKCore
@testable import CKLua
import Testing

/// `ck.stats()` reads counters kept as objects come and go, never a walk of what the runtime
/// holds (its `arenaValues` summed every arena, one a host and a class: linear in the hosts).
/// The counter must equal the walk through 10,000 hosts made, dropped, destroyed and collected.
@Suite("ck.stats() counters")
struct StatsCountersTests {
    private func counted(_ engine: Engine) throws -> (stats: Int, counter: Int, walked: Int) {
        try engine.runChunk("STATS = ck.stats().arenaValues", name: "=stats")
        guard case .int(let stats) = engine.tools.global("STATS") else { return (-1, 0, 0) }
        return (Int(stats), engine.refs.arenaValues, engine.refs.arenaValuesWalked)
    }

    /// `arenaValues` is a stored counter of the reference store, not a property computed by a walk.
    @Test func arenaValuesIsStored() {
        let engine = Engine()
        defer { engine.close() }
        let stored = Mirror(reflecting: engine.refs).children.compactMap(\.label)
        #expect(stored.contains("arenaValues"), "\(stored)")
    }

    @Test func arenaValuesIsACounterThatStaysRight() throws {
        let engine = Engine()
        defer { engine.close() }
        try engine.runChunk("""
            Row = ck.component("StatsRow", {scope = true, initialState = {n = 0}, view = {class = "UILabel"}})
            HOSTS = {}
            for i = 1, 10000 do
              local h = ck.host(function() return Row{key = i, text = "row " .. i} end)
              h:mount()
              HOSTS[i] = h
            end
            """, name: "=make")
        var (stats, counter, walked) = try counted(engine)
        #expect(walked > 10000 && counter == walked && stats == walked, "\(stats) \(counter) \(walked)")
        // Half dropped (collected: their arenas go), a quarter destroyed, the rest updated.
        try engine.runChunk("""
            for i = 1, 10000, 2 do HOSTS[i] = nil end
            for i = 2, 10000, 4 do HOSTS[i]:destroy() end
            for i = 4, 10000, 4 do HOSTS[i]:update() end
            collectgarbage(); collectgarbage()
            """, name: "=drop")
        (stats, counter, walked) = try counted(engine)
        #expect(counter == walked && stats == walked, "\(stats) \(counter) \(walked)")
        try engine.runChunk("for i = 1, 10000 do if HOSTS[i] then HOSTS[i]:destroy() end end HOSTS = nil collectgarbage() collectgarbage()", name: "=end")
        (stats, counter, walked) = try counted(engine)
        #expect(counter == walked && stats == walked, "\(stats) \(counter) \(walked)")
    }
}
