import CKRuntime
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("What an embedding program may throw at a runtime")
struct AttackTests {
    @Test func aSwiftHandlerCallingBackIntoLuaFromACoroutine() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            ck.struct("P", {x = "int"})
            return ck.component("Root", {scope = true, initialState = 0,
              ping = function(self, sender, n)
                local co = coroutine.wrap(function() ck.action("toSwift", {"int"}):send(self, n) return "done" end)
                return co()
              end,
              back = function(self, sender, n) self:updateState(n, "sync") end,
            })
            """)
        var responder = HostResponder(name: "Echo")
        nonisolated(unsafe) var hostBox: Host?
        responder.on("toSwift") { call in
            try hostBox?.send("back", types: ["int"], to: .scope("Root"), arguments: [call[0]])
        }
        let host = try runtime.mount(app, responders: [responder])
        hostBox = host
        try host.send("ping", types: ["int"], to: .scope("Root"), arguments: [9])
        #expect(try host.find("Root")?.state == 9)
    }

    @Test func aModelPastTheMemoryLimit() async {
        await #expect(processExitsWith: .success) {
            let runtime = try Runtime(.init(memoryLimitMegabytes: 8))
            let app = try runtime.load(string: "return ck.component('T', {render = function() return nil end})")
            let host = try runtime.mount(app)
            let huge = ScriptValue.string(String(repeating: "x", count: 32 << 20))
            do {
                try host.update(model: huge)
                exit(1)
            } catch let error as ScriptError {
                exit(error.id == .memoryLimit ? 0 : 2)
            }
        }
    }

    /// Marshalling recursed over the Swift value: 20,000 levels overflowed a test thread's stack.
    @Test func aDeeplyNestedSwiftValue() throws {
        let runtime = try Runtime()
        var value: ScriptValue = 1
        for _ in 0..<20_000 { value = [value] }
        let identity = try runtime.load(string: "return function(v) local d = 0 while type(v) == 'table' do v = v[1] d = d + 1 end return d end")
        #expect(try identity.call([value]) == [20_000])
    }

    @Test func aSwiftHandlerDestroysTheHostInTheMiddleOfASend() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: pickerSource)
        var responder = HostResponder(name: "Closer")
        nonisolated(unsafe) var hostBox: Host?
        responder.on("picked") { _ in try hostBox?.destroy() }
        let host = try runtime.mount(app, responders: [responder])
        hostBox = host
        try host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
        let error = try #require(throws: ScriptError.self) { try host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1]) }
        #expect(error.id == .hostDestroyed)
        hostBox = nil
    }

    @Test func anUnhandledActionUnderIgnoreReturnsFalse() throws {
        let f = try PickerFixture()
        _ = try f.runtime.load(string: "ck.config.unhandledAction = 'ignore'")
        #expect(try f.host.send("nobody", to: .responderChain(from: "Picker")) == false)
    }

    @Test func theWallClockFiresWhatIsDue() throws {
        let runtime = try Runtime(.init(clock: .wall))
        _ = try runtime.load(string: "fired = false ck.after(0, function() fired = true end) ck.after(3600, function() end)")
        try runtime.runDueTimers()
        #expect(try runtime.global("fired").value() == true)
        let wait = try #require(try runtime.secondsUntilNextTimer)
        #expect(wait > 3000 && wait <= 3600)
    }
}
