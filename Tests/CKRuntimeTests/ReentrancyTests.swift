import CKRuntime
import Foundation
import Testing

/// An embedding program calling back into its runtime from inside a call: a Swift handler (or a
/// timer that sends to one) that sends, updates, destroys, advances the clock or drops what it
/// holds. Each either works or throws a catalogued error; none traps or corrupts the runtime.
@Suite("Calling back into a runtime from inside a call")
struct ReentrancyTests {
    static let app = """
        log = {}
        return ck.component("Box", {scope = true, initialState = 0,
          render = function(self) return nil end,
          ping = function(self, sender, n) ck.action("toSwift", {"int"}):send(self, n) end,
          bump = function(self, sender, n) self:updateState(function(s) return s + n end, "sync") end,
          later = function(self, sender, n)
            ck.after(n, function() ck.action("toSwift", {"int"}):send(self, n) end)
          end})
        """

    /// A host of `app` whose `toSwift` handler runs `body`; what it throws is kept.
    final class Fixture {
        let runtime: Runtime
        var host: ComponentHost?
        var inside: (ComponentHost?) throws -> Void = { _ in }
        var errors: [ErrorID?] = []

        init() throws {
            runtime = try Runtime()
            let app = try runtime.load(string: ReentrancyTests.app, name: "box.lua")
            var responder = HostResponder(name: "VC")
            let box = Box()
            responder.on("toSwift") { _ in
                guard let fixture = box.fixture else { return }
                do { try fixture.inside(fixture.host) } catch { fixture.errors.append((error as? ScriptError)?.id); throw error }
            }
            host = try runtime.mount(app, responders: [responder])
            box.fixture = self
        }

        private final class Box { weak var fixture: Fixture? }

        /// Sends `ping` and returns the send's error id (nil when it succeeded).
        func ping() -> ErrorID? {
            do { try host?.send("ping", types: ["int"], to: .scope("Box"), arguments: [1]); return nil } catch { return error.id }
        }
    }

    @Test func everyHostCallFromAHandler() throws {
        let calls: [(String, (ComponentHost, Runtime) throws -> Void)] = [
            ("send", { h, _ in try h.send("bump", types: ["int"], to: .scope("Box"), arguments: [1]) }),
            ("action.send", { h, _ in try h.action("bump", types: ["int"], to: .scope("Box")).send([1]) }),
            ("update", { h, _ in try h.update(model: ["n": 3]) }),
            ("flush", { h, _ in try h.flush() }),
            ("unmount+mount", { h, _ in try h.unmount(); try h.mount() }),
            ("appear", { h, _ in try h.appear(); try h.disappear() }),
            ("dump", { h, _ in _ = try h.dump(); _ = try h.json(); _ = try h.find("Box"); _ = try h.count("Box") }),
            ("generation", { h, r in _ = try h.generation; _ = try h.isMounted; _ = try r.now; _ = try r.secondsUntilNextTimer }),
            ("advance", { _, r in try r.advance(by: 1) }),
            ("runDueTimers", { _, r in try r.runDueTimers() }),
            ("load", { _, r in _ = try r.load(string: "return 1").value(); try r.flush() }),
            ("mount another", { _, r in try r.mount(try r.load(string: "return ck.component('X', {render = function() return nil end})")).destroy() }),
        ]
        for (name, call) in calls {
            let fixture = try Fixture()
            fixture.inside = { host in if let host { try call(host, fixture.runtime) } }
            let sent = fixture.ping()
            #expect(sent == nil, "\(name): \(String(describing: sent)), inside: \(fixture.errors)")
            #expect(try fixture.runtime.load(string: "return 2").value() == 2, "\(name) left the runtime unusable")
        }
    }

    @Test func aHandlerThatDestroysItsHostAndSendsAgain() throws {
        let fixture = try Fixture()
        let action = try #require(fixture.host).action("bump", types: ["int"], to: .scope("Box"))
        fixture.inside = { host in
            try host?.destroy()
            try action.send([1])
        }
        #expect(fixture.ping() == .hostDestroyed)
        #expect(fixture.errors == [.hostDestroyed])
        #expect(throws: ScriptError.self) { try action.send([1]) }
    }

    @Test func aHandlerThatDropsTheLastReferenceToItsHost() throws {
        let fixture = try Fixture()
        fixture.inside = { _ in fixture.host = nil }
        #expect(fixture.ping() == nil)
        #expect(try fixture.runtime.load(string: "collectgarbage() return 3").value() == 3)
    }

    @Test func aTimerWhoseHandlerAdvancesTheClockAgain() throws {
        let fixture = try Fixture()
        var depth = 0
        fixture.inside = { _ in
            depth += 1
            defer { depth -= 1 }
            if depth < 3 { try fixture.runtime.advance(by: 5) }
        }
        try fixture.host?.send("later", types: ["int"], to: .scope("Box"), arguments: [1])
        try fixture.host?.send("later", types: ["int"], to: .scope("Box"), arguments: [2])
        #expect(throws: Never.self) { try fixture.runtime.advance(by: 10) }
        #expect(try fixture.runtime.secondsUntilNextTimer == nil)
    }
}
