import CKRuntime
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Outsider attack on the library, break 04: a ScriptObject of one runtime given to another's
/// mount was accepted and ran one Lua state's objects in another, then segfaulted once the first
/// runtime was dropped. In a process of its own, so the crash fails the test, not the run.
@Suite("A Lua value stays in its runtime")
struct CrossRuntimeTests {
    static let plain = "return ck.component('Plain', {render = function(self, props) return ck.Text{text = 'plain'} end})"
    static let provider = "local Root = ck.component('Root', {render = function(self) return ck.Text{text = 'hi'} end}) return function(model) return Root{} end"

    @Test func anotherRuntimesProviderIsBadArgumentNamingTheProblem() async {
        await #expect(processExitsWith: .success) {
            var first: Runtime? = try Runtime()
            let second = try Runtime()
            let objects = [try first!.load(string: CrossRuntimeTests.provider, name: "prov1.lua"),
                           try first!.load(string: CrossRuntimeTests.plain, name: "plain1.lua")]
            first = nil   // the objects keep it alive
            for object in objects + objects {
                do { _ = try second.mount(object, model: ["title": "x"]); exit(1) } catch let error as ScriptError {
                    guard error.id == .badArgument, error.message.contains("belongs to another Runtime") else { exit(2) }
                }
            }
            // The runtime that refused them is whole: its own class mounts.
            let own = try second.mount(try second.load(string: CrossRuntimeTests.plain, name: "plain2.lua"))
            exit(try own.dump().contains("Plain") ? 0 : 3)
        }
    }

    @Test func theSameRuntimesObjectsAreWelcome() throws {
        let runtime = try Runtime()
        let host = try runtime.mount(try runtime.load(string: Self.provider, name: "prov.lua"))
        #expect(try host.dump().contains("Root"))
    }
}
