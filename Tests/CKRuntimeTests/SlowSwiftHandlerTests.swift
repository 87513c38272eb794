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
    /// In a process of its own: the process has one timer, which the other suites' timed calls
    /// share (a call waits for it), so a parallel run could leave this call's deadline to chance.
    @Test func theTimeoutNamesTheSwiftHandler() async {
        await #expect(processExitsWith: .success) {
            let runtime = try Runtime(.init(timeout: 0.3))
            let app = try runtime.load(string: """
                return ck.component("Btn", {scope = true,
                  render = function(self) return ck.Button{title = "go", action = ck.action("save")} end})
                """, name: "btn.lua")
            var responder = HostResponder(name: "VC")
            nonisolated(unsafe) var saved = false
            responder.on("save") { _ in usleep(700_000); saved = true }
            let host = try runtime.mount(app, responders: [responder])
            do { _ = try host.tap("Button"); exit(2) } catch let error as ScriptError {
                guard saved else { exit(3) }
                guard error.limit == .timeout else { exit(4) }
                guard error.message.contains("Swift handler"), error.message.contains("save"), error.message.contains("VC") else { exit(5) }
                guard !error.message.contains("find the loop") else { exit(6) }
            }
            exit(0)
        }
    }
}
