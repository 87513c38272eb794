import CKRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A runtime's deallocation closes its Lua state, whose finalizers run under its timeout: it
/// may time them with the process's one timer and Ctrl-C handler only when no other runtime's
/// call holds them. It took them from an untimed call under way, and the Ctrl-C meant for that
/// call went to a state already closed: the call ran on. Each test runs in a process of its own.
@Suite("A runtime dropped while another's call runs")
struct DroppedRuntimeSignalsTests {
    /// A timed runtime dropped inside an untimed runtime's call: the call keeps its Ctrl-C.
    @Test func anUntimedCallKeepsItsCtrlCWhenATimedRuntimeIsDropped() async {
        await #expect(processExitsWith: .success) {
            Thread.detachNewThread { sleep(20); exit(9) }
            let untimed = try Runtime()
            var responder = HostResponder(name: "VC")
            responder.on("dropAnother") { _ in
                // Made and dropped inside the untimed call (a call of it would be [timerBusy]):
                // its state closes under its timeout.
                do { _ = try Runtime(.init(timeout: 5)) } catch { exit(4) }
                // `timed` is gone: Ctrl-C now, while the untimed call's Lua runs on.
                Thread.detachNewThread { usleep(300_000); kill(getpid(), SIGINT) }
            }
            let app = try untimed.load(string: """
                return ck.component("C", {scope = true, render = function() return nil end,
                  go = function(self)
                    ck.action("dropAnother"):send(self)
                    local t = os.clock() + 4
                    while os.clock() < t do end
                  end})
                """)
            let host = try untimed.mount(app, responders: [responder])
            do { try host.send("go", to: .scope("C")); exit(2) } catch let error as ScriptError {
                exit(error.id == .interrupted ? 0 : 3)
            }
        }
    }
}
