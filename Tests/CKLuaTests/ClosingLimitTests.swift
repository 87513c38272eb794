@testable import CKLua
import Foundation
import Testing

/// A state's close runs its finalizers under its time limit; one timer serves the process, so
/// a state closed while another runs under a deadline leaves that deadline alone. In a process
/// of its own (an exit test): the test process's other threads start processes meanwhile.
@Suite("The time limit at close")
struct ClosingLimitTests {
    @Test func closingAnotherStateKeepsTheRunningOnesLimit() async {
        await #expect(processExitsWith: .success) {
            let running = Engine(configuration: .init(timeoutSeconds: 0.3))
            var closing: Engine? = Engine(configuration: .init(timeoutSeconds: 30))
            let release = running.tools.function { _ throws(LuaError) in
                closing = nil
                return []
            }
            // Bounded: had the close taken the timer, the loop would end after seconds, not raise.
            let chunk = try running.tools.load("local release = ... release() local x = 0 for i = 1, 2e9 do x = x + 1 end", name: "=loop")
            do {
                _ = try running.withDeadline(0.3) { () throws(LuaError) in try running.tools.call(chunk, [release]) }
                exit(1)
            } catch {
                exit((error as? LuaError)?.id == "timeout" && closing == nil ? 0 : 2)
            }
        }
    }
}
