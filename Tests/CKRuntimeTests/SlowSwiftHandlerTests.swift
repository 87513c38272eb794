import CKRuntime
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Attack embed 02: a Swift handler that outlasted the timeout made the send throw "[timeout]
/// the script ran past its time limit; find the loop that does not end", naming nothing, where
/// no Lua was running: the error names the Swift handler that ran past the limit.
@Suite("A Swift handler past the timeout is named")
struct SlowSwiftHandlerTests {
    @Test func theTimeoutNamesTheSwiftHandler() throws {
        let runtime = try Runtime(.init(timeout: 0.3))
        let app = try runtime.load(string: """
            return ck.component("Btn", {scope = true,
              render = function(self) return ck.Button{title = "go", action = ck.action("save")} end})
            """, name: "btn.lua")
        var responder = HostResponder(name: "VC")
        var saved = false
        responder.on("save") { _ in usleep(700_000); saved = true }
        let host = try runtime.mount(app, responders: [responder])
        let error = #expect(throws: ScriptError.self) { try host.tap("Button") }
        #expect(saved)
        #expect(error?.limit == .timeout)
        #expect(error?.message.contains("Swift handler") == true)
        #expect(error?.message.contains("save") == true)
        #expect(error?.message.contains("VC") == true)
        #expect(error?.message.contains("find the loop") == false)
    }
}
