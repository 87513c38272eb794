import CKRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two runtimes, each used by its own thread at the same time (the one-runtime-per-thread use
/// the library is made for): the timeout's timer and Ctrl-C's handler belong to the process,
/// not to a runtime. Each test runs in a process of its own: the failure they guard against
/// ended the process (the watchdog's last resort) or left a loop running for ever.
@Suite("Runtimes used on two threads at once")
struct RuntimesOnTwoThreadsTests {
    /// Starts a thread calling into a runtime of its own, with a 5-second timeout, until the
    /// process ends; and ends the process with 9 after 20 seconds, should a loop never stop.
    static func keepAnotherTimedRuntimeBusy() {
        Thread.detachNewThread { sleep(20); exit(9) }
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guard let other = try? Runtime(.init(timeout: 5)),
                  let sum = try? other.load(string: "return function() local s = 0 for i = 1, 2000 do s = s + i end return s end")
            else { exit(7) }
            started.signal()
            while true { _ = try? sum.call() }
        }
        started.wait()
    }

    /// h-lib5: each call of the other runtime set the process's timer for itself and stopped
    /// it when it returned, so the first runtime's endless loop was never stopped (exit 9). Now
    /// a call finds the timer free or is refused; the one that holds it is stopped in time.
    @Test func aTimedLoopIsStoppedWhileAnotherTimedRuntimeRunsOnAnotherThread() async {
        await #expect(processExitsWith: .success) {
            RuntimesOnTwoThreadsTests.keepAnotherTimedRuntimeBusy()
            let timed = try Runtime(.init(timeout: 0.5))
            while true {   // [timerBusy] while the other's call holds the timer: try again
                do { try timed.load(string: "while true do end", name: "loop.lua"); exit(2) } catch let error as ScriptError {
                    if error.id != .timerBusy { exit(error.id == .timeout ? 0 : 3) }
                }
            }
        }
    }

    /// A second runtime with a timeout, called while the first's call holds the process's
    /// timer on another thread, cannot be limited: it waits for the timer up to its own timeout
    /// (0.5 s, while the first's call waits for it), then is refused before any Lua runs, with
    /// an id of its own, and runs once the timer is free.
    @Test func aTimedRuntimeIsRefusedWhileAnotherHoldsTheTimer() async {
        await #expect(processExitsWith: .success) {
            let first = try Runtime(.init(timeout: 5))
            nonisolated(unsafe) let second = try Runtime(.init(timeout: 0.5))
            nonisolated(unsafe) var caught: ErrorID?
            var responder = HostResponder(name: "VC")
            responder.on("during") { _ in
                onAnotherThread {
                    do { _ = try second.load(string: "return 1") } catch let error as ScriptError { caught = error.id } catch {}
                }
            }
            let app = try first.load(string: """
                return ck.component("C", {scope = true, render = function() return nil end,
                  go = function(self) ck.action("during"):send(self) end})
                """)
            let host = try first.mount(app, responders: [responder])
            try host.send("go", to: .scope("C"))
            guard caught?.rawValue == "timerBusy" else { exit(2) }
            exit(try second.load(string: "return 1").value() == 1 ? 0 : 3)
        }
    }
}
