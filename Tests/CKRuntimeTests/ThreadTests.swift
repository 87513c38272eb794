import CKRuntime
import Foundation
import Testing

/// Runs `body` on a new thread and waits for it.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    done.wait()
}

/// A runtime whose `during` handler runs `body` while the runtime is inside a call.
final class InsideACall {
    let runtime: Runtime
    let host: CKRuntime.Host
    nonisolated(unsafe) var body: () -> Void = {}

    init() throws {
        runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("Caller", {scope = true, render = function() return nil end,
              go = function(self) ck.action("during"):send(self) end})
            """, name: "caller.lua")
        var responder = HostResponder(name: "VC")
        let box = Box()
        responder.on("during") { _ in box.fixture?.body() }
        host = try runtime.mount(app, responders: [responder])
        box.fixture = self
    }

    func whileInside(_ body: @escaping () -> Void) throws {
        self.body = body
        try host.send("go", to: .scope("Caller"))
    }

    private final class Box { weak var fixture: InsideACall? }
}

/// A runtime belongs to one isolation domain, used one call at a time from whatever thread
/// runs it (attack lib 05, lib2 03: an actor's jobs hop between threads and were refused).
@Suite("One runtime, one call at a time, from any thread")
struct ThreadTests {
    /// Made on one thread and used on another, as an actor's jobs do.
    @Test func aRuntimeMovesToTheThreadThatCallsIt() throws {
        nonisolated(unsafe) var made: Runtime?
        onAnotherThread { made = try? Runtime() }
        let runtime = try #require(made)
        #expect(try runtime.load(string: "return 1 + 1").value() == 2)
        nonisolated(unsafe) let shared = runtime
        nonisolated(unsafe) var back: ScriptValue?
        onAnotherThread { back = try? shared.load(string: "return 3").value() }
        #expect(back == 3)
    }

    actor Owner {
        let runtime: Runtime
        let step: ScriptObject
        init() throws {
            runtime = try Runtime()
            step = try runtime.load(string: "local n = 0 return function() n = n + 1 return n end")
        }
        func next() throws -> Int { try step.call()[0].intValue ?? -1 }
    }

    @Test func anActorUsesItsRuntimeFromEveryJob() async throws {
        let owner = try Owner()
        for i in 1...200 {
            #expect(try await owner.next() == i)
            await Task.yield()
        }
    }

    @Test func anotherThreadIsRefusedWhileOneIsInsideACall() throws {
        let fixture = try InsideACall()
        _ = try fixture.runtime.load(string: "loaded = 0")
        nonisolated(unsafe) let shared = fixture.runtime
        nonisolated(unsafe) var caught: [ScriptError?] = []
        try fixture.whileInside {
            onAnotherThread {
                do { try shared.load(string: "loaded = 1") } catch { caught.append(error as? ScriptError) }
                do { try shared.advance(by: 5) } catch { caught.append(error as? ScriptError) }
            }
        }
        #expect(caught.map { $0?.id } == [.notMainThread, .notMainThread])
        #expect(try fixture.runtime.global("loaded").value() == 0)
    }

    /// h-lib5: a host's generation and mounted flag and the runtime's clock were read from the
    /// core beside the call another thread was making (ThreadSanitizer saw the builder's and the
    /// timers' writes race them); what reads the runtime's state is refused like a call.
    @Test func readingStateFromAnotherThreadDuringACallIsRefused() throws {
        let fixture = try InsideACall()
        nonisolated(unsafe) let shared = (fixture.runtime, fixture.host)
        nonisolated(unsafe) var caught: [ErrorID?] = []
        try fixture.whileInside {
            onAnotherThread {
                let (runtime, host) = shared
                func note(_ read: () throws -> Void) {
                    do { try read(); caught.append(nil) } catch { caught.append((error as? ScriptError)?.id) }
                }
                note { _ = try host.generation }
                note { _ = try host.isMounted }
                note { _ = try runtime.now }
                note { _ = try runtime.secondsUntilNextTimer }
            }
        }
        #expect(caught == [.notMainThread, .notMainThread, .notMainThread, .notMainThread])
        #expect(try fixture.host.generation == 1 && fixture.host.isMounted)
    }

    /// Attack lib2 07: a ScriptObject released on another thread while the runtime ran Lua wrote
    /// to the Lua state beside the script. Its release now waits for the next call.
    @Test func aScriptObjectDroppedOnAnotherThreadDuringACallWaitsForTheNext() throws {
        let fixture = try InsideACall()
        let references = try fixture.runtime.load(string: "return function() return ck.stats().references end")
        nonisolated(unsafe) var objects: [ScriptObject]? = try (0..<100).map { _ in
            try fixture.runtime.load(string: "return {}")
        }
        func count() -> Int { (try? references.call())?.first?.intValue ?? -1 }
        let before = count()
        nonisolated(unsafe) var during: (before: Int, after: Int) = (0, 0)
        try fixture.whileInside {
            during.before = count()
            onAnotherThread { objects = nil }
            during.after = count()
        }
        #expect(during.after == during.before, "the other thread released Lua values while a call ran")
        #expect(count() < before - 90, "the next call released them")
    }
}
