@testable import CKLua
import CKCore
import Testing

/// Issue 24, class 5: every byte a state holds counts against its memory limit: a warning being
/// gathered (C) and what Swift keeps for the script (interned selectors, queued updates and the
/// strings they carry). Pools: `MemoryLimitProcessTests`.
@Suite("Memory the limit sees")
struct MemoryAccountingTests {
    private static let limit = 16 << 20

    private static func limited() -> Engine {
        Engine(configuration: .init(memoryLimitBytes: limit))
    }

    /// `warn` with one 1 KB string 40,000 times: 40 MB gathered in C from 1 MB of Lua's.
    @Test func aWarningIsCutAtTheLimit() throws {
        let engine = Self.limited()
        var received: [Int] = []
        engine.lua.onWarning = { message, _ in received.append(message.utf8.count); return true }
        try engine.runChunk("""
            warn("@on")
            local s, t = string.rep("x", 1024), {}
            for i = 1, 40000 do t[i] = s end
            warn(table.unpack(t))
            warn("after")
            """, name: "=warn")
        #expect(received.count == 2)
        #expect((received.first ?? .max) < Self.limit, "a warning of \(received.first ?? 0) bytes")
        #expect(received.last == 5)
    }

    /// What the queue holds is given back when it is built.
    @Test func theQueueGivesItsBytesBack() throws {
        let engine = Self.limited()
        try engine.runChunk("""
            local C = ck.component("Queued", {scope = true, initialState = 0})
            host = ck.host(function() return C{} end)
            host:mount()
            for i = 1, 1000 do host.root:updateState(i) end
            """, name: "=queue")
        let queued = engine.lua.memoryHeld
        try engine.runChunk("ck.flush() assert(host.root.state == 1000)", name: "=flush")
        #expect(queued - engine.lua.memoryHeld >= 1000 * 64, "\(queued) → \(engine.lua.memoryHeld)")
    }

    @Test(arguments: [
        "for i = 1, 1e7 do host.root:updateState(i) end",                  // the queue's own entries
        "for i = 1, 100 do ck.action(string.rep('s', 1 << 20) .. i) end",   // interned selectors
        "for i = 1, 100 do ck.component(string.rep('c', 1 << 20) .. i, {}) end",   // class names
        "for i = 1, 100 do ck.registerControlClass(string.rep('v', 1 << 20) .. i) end",
    ])
    func whatSwiftKeepsStopsAtTheLimit(_ attack: String) throws {
        let engine = Self.limited()
        try engine.runChunk("""
            local C = ck.component("Held", {scope = true, initialState = 0})
            host = ck.host(function() return C{} end)
            host:mount()
            """, name: "=setup")
        do {
            try engine.runChunk(LuaSource(bytes: attack.utf8), name: "=attack")
            Issue.record("expected [memoryLimit]; Swift holds \(engine.lua.memoryHeld) bytes")
        } catch {
            #expect(error.id == "memoryLimit", "\(error)")
        }
    }
}
