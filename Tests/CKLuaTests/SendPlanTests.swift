import CKCore
import CLuaShims
@testable import CKLua
import class Foundation.Thread
import Dispatch
import Testing

@Suite("Cached sends")
struct SendPlanTests {
    /// The C send path reads and writes the core's `CallState` through `ck_callstate`.
    @Test func callStateLayoutMatchesC() {
        #expect(MemoryLayout<CallState>.size == MemoryLayout<ck_callstate>.size)
        #expect(MemoryLayout<CallState>.offset(of: \.depth) == MemoryLayout<ck_callstate>.offset(of: \.depth))
        #expect(MemoryLayout<CallState>.offset(of: \.syncRequested) == MemoryLayout<ck_callstate>.offset(of: \.sync_requested))
        #expect(MemoryLayout<CallState>.offset(of: \.epoch) == MemoryLayout<ck_callstate>.offset(of: \.epoch))
        #expect(MemoryLayout<CallState>.offset(of: \.tracing) == MemoryLayout<ck_callstate>.offset(of: \.tracing))
        #expect(MemoryLayout<CallState>.offset(of: \.ownerThread) == MemoryLayout<ck_callstate>.offset(of: \.owner_thread))
        #expect(MemoryLayout<CallState>.offset(of: \.plannedSends) == MemoryLayout<ck_callstate>.offset(of: \.planned_sends))
        #expect(MemoryLayout<CallState>.offset(of: \.changing) == MemoryLayout<ck_callstate>.offset(of: \.changing))
        #expect(MemoryLayout<CallState>.offset(of: \.renderDepth) == MemoryLayout<ck_callstate>.offset(of: \.render_depth))
        #expect(MemoryLayout<CallState>.offset(of: \.entered) == MemoryLayout<ck_callstate>.offset(of: \.entered))
        #expect(MemoryLayout<CallState>.size == MemoryLayout<ck_callstate>.size)
    }

    /// A plan holds registry-free values only: sending many distinct actions leaves no references behind.
    @Test func plansReleaseWhatTheyHold() throws {
        let engine = Engine()
        try engine.runChunk("""
            local C = ck.component("Held", {scope = true, hit = function() end})
            local host = ck.host(function() return C{} end)
            local root = host.root
            for i = 1, 2000 do local a = root:action("hit"); a:send(nil); a:send(nil) end
            host:destroy()
            """, name: "=t")
        engine.lua.collectGarbage()
        engine.lua.collectGarbage()
        let handles = engine.liveHandles, refs = engine.liveReferences
        try engine.runChunk("""
            local C = ck.component("Held2", {scope = true, hit = function() end})
            local host = ck.host(function() return C{} end)
            local root = host.root   -- held, so that no collection of its handle spoils a plan
            for i = 1, 2000 do local a = root:action("hit"); a:send(nil); a:send(nil) end
            host:destroy()
            """, name: "=t")
        engine.lua.collectGarbage()
        engine.lua.collectGarbage()
        #expect(engine.liveHandles <= handles + 2)
        #expect(engine.liveReferences <= refs + 8)
        #expect(engine.runtime.callState.pointee.plannedSends == 4000)
    }

    /// A send from another thread is refused even when a plan exists for it.
    @Test func planIsNotUsedFromAnotherThread() throws {
        let engine = Engine()
        try engine.runChunk("""
            local C = ck.component("Threaded", {scope = true, hit = function() end})
            host = ck.host(function() return C{} end)
            action = host.root:action("hit")
            action:send(nil); action:send(nil)
            """, name: "=t")
        nonisolated(unsafe) let unsafeEngine = engine
        nonisolated(unsafe) var message = ""
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { try unsafeEngine.runChunk("action:send(nil)", name: "=t") } catch let e as LuaError { message = e.message } catch {}
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(message.hasPrefix("[notMainThread]"))
    }

    /// A handler answered from a plan runs with the memory limit on, as on the full path, even
    /// when the send comes from Lua that Swift runs in host mode (a `__tostring` during `dump`).
    @Test func plannedHandlerRunsUnderTheMemoryLimit() throws {
        let engine = Engine(configuration: .init(memoryLimitBytes: 30 * 1024 * 1024))
        try engine.runChunk("""
            local C = ck.component("Limited", {scope = true, initialState = {}, hit = function(self, sender, big)
              if big then
                result = pcall(function() local t = {} for i = 1, 2e6 do t[i] = i .. "" end end)
              end
            end})
            local h = ck.host(function() return C{} end)
            local root = h.root
            local a = root:action("hit", {"bool"})
            local key = setmetatable({}, {__tostring = function()
              local before = ck.stats().plannedSends
              a:send(nil, true)
              planned = ck.stats().plannedSends - before
              return "key"
            end})
            root:updateState({[key] = 1}, "sync")
            root = h.root
            a:send(nil, false)
            pcall(h.dump, h)   -- its own allocations go past the limit too: [memoryLimit]
            """, name: "=t")
        try engine.runChunk("assert(planned == 1, 'planned: ' .. tostring(planned)); assert(result == false, 'the handler allocated past the limit')", name: "=check")
    }
}
