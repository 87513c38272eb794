import CKRuntime
import Foundation
import Testing

/// A runtime shared (wrongly, past Swift's checks) by several threads at once: every public
/// entry either runs holding the runtime or is `[notMainThread]`, and none reads the core or the
/// Lua state beside another thread's call. Run under ThreadSanitizer (`scripts/sanitize-thread`)
/// to see a race itself; without it, the counts below check that no call was lost or doubled.
@Suite("Several threads hammering one runtime")
struct ConcurrentUseTests {
    static let app = """
        sends, fired = 0, 0
        local function rearm() ck.after(0.5, function() fired = fired + 1 rearm() end) end
        rearm()
        local Row = ck.component("Row", {render = function() return nil end})
        return ck.component("Counter", {scope = true, initialState = 0,
          render = function(self)
            local rows = {}
            for i = 1, 20 do rows[i] = Row({key = i, n = self.state}) end
            return ck.Stack{children = rows}
          end,
          hit = function(self, sender, n) sends = sends + 1 self:updateState(function(s) return s + 1 end, "sync") end})
        """

    /// What one thread did: calls that ran, calls refused with `[notMainThread]`, any other error.
    struct Tally: Sendable {
        var ran = 0, refused = 0
        var sends = 0
        var unexpected: [String] = []

        /// Runs `body`; a `true` it returns counts a handled send.
        mutating func attempt(_ body: () throws -> Bool) {
            do { if try body() { sends += 1 }; ran += 1 } catch let error as ScriptError where error.id == .notMainThread {
                refused += 1
            } catch { unexpected.append("\(error)") }
        }
    }

    struct WrongResult: Error {}

    /// Rounds a thread makes: a few hundred by default, a quick run; scripts/sanitize-thread
    /// asks 2,000, which ThreadSanitizer needed to catch a read in the middle of another call.
    static let rounds = ProcessInfo.processInfo.environment["CKRUNTIME_HAMMER_ROUNDS"].flatMap { Int($0) } ?? 300

    @Test func everyCallRunsAloneOrIsRefused() throws {
        let runtime = try Runtime()
        let counter = try runtime.load(string: Self.app, name: "counter.lua")
        let host = try runtime.mount(counter)
        let action = try host.action("hit", types: ["int"], to: .scope("Counter"))
        let adder = try runtime.load(string: "return function(a, b) return a + b end")
        nonisolated(unsafe) let shared = (runtime, host, action, adder)
        let threads = 4, rounds = Self.rounds
        nonisolated(unsafe) var tallies: [Tally] = []
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            let (runtime, host, action, adder) = shared
            var tally = Tally()
            for i in 0..<rounds {
                switch (i + t) % 8 {
                case 0: tally.attempt { try action.send([.int(i)]) }
                case 1: tally.attempt { try host.send("hit", types: ["int"], to: .scope("Counter"), arguments: [1]) }
                case 2: tally.attempt { _ = try host.generation; _ = try host.isMounted; return false }
                case 3: tally.attempt { _ = try runtime.now; _ = try runtime.secondsUntilNextTimer; return false }
                case 4: tally.attempt { try runtime.advance(by: 0.25); return false }
                case 5: tally.attempt { guard try adder.call([.int(2), .int(3)]) == [5] else { throw WrongResult() }; return false }
                case 6: tally.attempt { _ = try adder.typeName; _ = try adder.isNil; _ = try adder.value(); return false }
                default: tally.attempt { _ = try runtime.load(string: "return {}").value(); return false }
                }
            }
            lock.withLock { tallies.append(tally) }
        }
        #expect(tallies.flatMap(\.unexpected) == [])
        let ran = tallies.map(\.ran).reduce(0, +), refused = tallies.map(\.refused).reduce(0, +)
        #expect(ran + refused == threads * rounds)
        let sent = tallies.map(\.sends).reduce(0, +)
        #expect(try runtime.global("sends").value() == .int(sent))
        #expect(try host.find("Counter")?.state == .int(sent))
        #expect(try host.generation == sent + 1)
    }

    /// Objects made and dropped on several threads while others call: what is dropped beside a
    /// call waits for the next (none is released unconfined), and the runtime stays whole.
    @Test func objectsDroppedOnEveryThreadWhileOthersCall() throws {
        let runtime = try Runtime()
        let counter = try runtime.load(string: Self.app, name: "counter.lua")
        nonisolated(unsafe) let shared = (runtime, counter)
        nonisolated(unsafe) var unexpected: [String] = []
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            let (runtime, counter) = shared
            var tally = Tally()
            for _ in 0..<60 {
                tally.attempt {
                    let host = try runtime.mount(counter)
                    let action = try host.action("hit", types: ["int"], to: .scope("Counter"))
                    _ = try action.send([1])
                    if t % 2 == 0 { try host.destroy() }
                    return false
                }
                tally.attempt { _ = try runtime.load(string: "return function() end"); return false }
            }
            lock.withLock { unexpected += tally.unexpected }
        }
        #expect(unexpected == [])
        #expect(try runtime.load(string: "collectgarbage() return 1").value() == 1)
    }

    /// Tasks send a made action while another destroys its host: a send runs whole before the
    /// destroy or is refused (`[notMainThread]`, `[hostDestroyed]` once it is gone), never half.
    @Test func actionsSentFromTasksWhileTheirHostIsDestroyed() async throws {
        let runtime = try Runtime()
        let host = try runtime.mount(try runtime.load(string: Self.app, name: "counter.lua"))
        let action = try host.action("hit", types: ["int"], to: .scope("Counter"))
        nonisolated(unsafe) let shared = (host, action)
        let ids = await withTaskGroup(of: [ErrorID].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var ids: [ErrorID] = []
                    for i in 0..<300 { do throws(ScriptError) { try shared.1.send([.int(i)]) } catch { ids.append(error.id) } }
                    return ids
                }
            }
            group.addTask {
                var ids: [ErrorID] = []
                for _ in 0..<100_000 {
                    do throws(ScriptError) { try shared.0.destroy(); break } catch { ids.append(error.id) }
                }
                return ids
            }
            var all: [ErrorID] = []
            for await ids in group { all += ids }
            return all
        }
        #expect(Set(ids).isSubset(of: [ErrorID.notMainThread, .hostDestroyed]), "\(Set(ids))")
        #expect(throws: ScriptError.self) { try action.send([1]) }
        #expect(try runtime.load(string: "return sends").value() != nil)
    }

    /// The last references to a runtime's objects, and so to the runtime, let go on other
    /// threads than the one that used it: what waits is let go with it, the Lua state closed.
    @Test func aRuntimeWhoseObjectsAreDroppedOnOtherThreads() throws {
        func made() throws -> (ComponentHost?, Action?, ScriptObject?) {
            let runtime = try Runtime()
            let host = try runtime.mount(try runtime.load(string: Self.app, name: "counter.lua"))
            return (host, try host.action("hit", types: ["int"], to: .scope("Counter")), try runtime.load(string: "return {}"))
        }
        for _ in 0..<20 {
            nonisolated(unsafe) var held = try made()
            onAnotherThread { held.1 = nil }
            onAnotherThread { held.2 = nil }
            onAnotherThread { held.0 = nil }
            #expect(held.0 == nil && held.1 == nil && held.2 == nil)
        }
    }
}
