@testable import CKLua
import Testing

/// A state's close runs its finalizers under its time limit; one timer serves the process, so
/// a state closed while another runs under a deadline leaves that deadline alone.
@Suite("The time limit at close")
struct ClosingLimitTests {
    @Test func closingAnotherStateKeepsTheRunningOnesLimit() throws {
        let running = Engine(configuration: .init(timeoutSeconds: 0.3))
        var closing: Engine? = Engine(configuration: .init(timeoutSeconds: 30))
        let release = running.function { _ throws(LuaError) in
            closing = nil
            return []
        }
        // Bounded: if the close had taken the timer, the loop would end after seconds, not raise.
        let chunk = try running.load("local release = ... release() local x = 0 for i = 1, 2e9 do x = x + 1 end", name: "=loop")
        do {
            _ = try running.withDeadline(0.3) { () throws(LuaError) in try running.call(chunk, [release]) }
            Issue.record("expected [timeout]")
        } catch {
            #expect(error.id == "timeout")
        }
        #expect(closing == nil)
    }
}
