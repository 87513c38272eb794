import CKRuntime
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Outsider attack on the library, break 08: a script's table nested 100,000 deep became a
/// ScriptValue that overflowed the stack when Swift released it (SIGSEGV). Each runs in a
/// process of its own, so the crash it guards against fails the test instead of the run.
@Suite("Values nest no deeper than ScriptValue.maximumDepth")
struct DeepValueTests {
    static func nested(_ depth: Int, _ wrap: String = "{t}") -> String {
        "local t = {} for i = 2, \(depth) do t = \(wrap) end return t"
    }

    @Test func aDeepLuaTableIsBadArgumentEveryWayItComesBack() async {
        await #expect(processExitsWith: .success) {
            let runtime = try Runtime(.init(timeout: 5, memoryLimitMegabytes: 256, sandbox: true))
            for wrap in ["{t}", "{x = t}"] {
                let deep = try runtime.load(string: DeepValueTests.nested(100_000, wrap), name: "deep.lua")
                let calls: [() throws -> Void] = [
                    { _ = try deep.value() },
                    { _ = try runtime.load(string: "return function() \(DeepValueTests.nested(100_000, wrap)) end").call() },
                ]
                for call in calls {
                    do { try call(); exit(1) } catch let error as ScriptError {
                        guard error.id == .badArgument, error.message.contains("nested more than 1000 deep") else { exit(2) }
                    }
                }
            }
            exit(0)
        }
    }

    @Test func aDeepTableAsAHandlersArgumentIsRefused() async {
        await #expect(processExitsWith: .success) {
            let runtime = try Runtime()
            let app = try runtime.load(string: """
                return ck.component("Deep", {scope = true,
                  render = function(self) return ck.Text{text = "deep"} end,
                  go = function(self) ck.action("deep", {"table"}):send(self, (function() \(DeepValueTests.nested(100_000)) end)()) end})
                """, name: "deep.lua")
            var responder = HostResponder(name: "VC")
            responder.on("deep") { _ in exit(3) }
            let host = try runtime.mount(app, responders: [responder])
            do { try host.send("go", to: .scope("Deep")); exit(1) } catch let error as ScriptError {
                exit(error.message.contains("nested more than 1000 deep") ? 0 : 2)
            }
        }
    }

    @Test func theLimitItselfCrossesBothWays() throws {
        let runtime = try Runtime()
        let allowed = try runtime.load(string: Self.nested(ScriptValue.maximumDepth), name: "deep.lua").value()
        let identity = try runtime.load(string: "return function(t) return t end")
        let back = try identity.call([allowed]) == [allowed]   // compared apart: a failure would print it whole
        #expect(back)
        let error = try #require(throws: ScriptError.self) {
            try runtime.load(string: Self.nested(ScriptValue.maximumDepth + 1), name: "deep.lua").value()
        }
        #expect(error.id == .badArgument)
        #expect(error.message.contains("flatten"))
    }

    /// A Swift value goes in at any depth (AttackTests.aDeeplyNestedSwiftValue); coming back
    /// past the limit it is refused like any Lua table.
    @Test func aDeepSwiftValueGoesInButDoesNotComeBack() throws {
        let runtime = try Runtime()
        var value: ScriptValue = ["leaf"]
        for _ in 1..<ScriptValue.maximumDepth { value = [value] }
        let identity = try runtime.load(string: "return function(t) return t end")
        let back = try identity.call([value]) == [value]
        #expect(back)
        let error = try #require(throws: ScriptError.self) { try identity.call([["x": value]]) }
        #expect(error.id == .badArgument)
        #expect(error.message.contains("a Lua table becoming a ScriptValue"))
    }
}
