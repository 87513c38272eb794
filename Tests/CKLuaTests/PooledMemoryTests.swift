@testable import CKLua
import Testing

/// A test file's state takes small blocks from size-class pools (ckpool.c): blocks that grow
/// and shrink across classes and past the pools' largest keep their bytes, the counts stay
/// Lua's, and the memory limit still stops a script.
@Suite("Pooled memory")
struct PooledMemoryTests {
    @Test func blocksKeepTheirBytesAcrossClassesAndPastThePools() throws {
        let engine = Engine(configuration: .init(pooledMemory: true))
        try engine.runChunk("""
            local kept = {}
            for round = 1, 3 do
              for size = 1, 1200, 7 do
                local t = {}
                for i = 1, size // 8 + 1 do t[i] = i * round end   -- the array part grows through the classes
                local s = string.rep(string.char(65 + size % 26), size)
                kept[#kept + 1] = { t = t, s = s, size = size, round = round }
              end
              for i = 1, #kept, 2 do kept[i] = false end               -- frees blocks of every class
              collectgarbage()
            end
            for _, k in ipairs(kept) do
              if k then
                assert(#k.s == k.size and k.s == string.rep(string.char(65 + k.size % 26), k.size))
                for i = 1, #k.t do assert(k.t[i] == i * k.round) end
              end
            end
            """, name: "=pooled")
        let before = engine.lua.memoryInUse
        try engine.runChunk("local t = {} for i = 1, 1e5 do t[i] = {i} end t = nil collectgarbage()", name: "=churn")
        #expect(engine.lua.memoryInUse < before + 64 * 1024)
    }

    @Test func theMemoryLimitStopsAPooledState() {
        let engine = Engine(configuration: .init(memoryLimitBytes: 8 << 20, pooledMemory: true))
        do {
            try engine.runChunk("local t = {} for i = 1, 1e8 do t[i] = {i, tostring(i)} end", name: "=fill")
            Issue.record("expected [memoryLimit]")
        } catch {
            #expect(error.id == "memoryLimit")
        }
        #expect((try? engine.runChunk("x = 1", name: "=after")) != nil)
    }
}
