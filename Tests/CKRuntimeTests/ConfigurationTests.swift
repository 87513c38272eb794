import CKRuntime
import Testing

/// Attack lib 11, lib2 09: a limit that is no limit was accepted and silently meant none.
@Suite("Limits are limits")
struct ConfigurationTests {
    @Test(arguments: [-1, 0, .nan, -.infinity] as [Double])
    func aTimeoutThatIsNoNumberOfSecondsIsRefused(_ timeout: Double) {
        let error = #expect(throws: ScriptError.self) { try Runtime(.init(timeout: timeout)) }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("timeout") == true)
    }

    @Test(arguments: [0, -1, Int.min, Int.max])
    func aMemoryLimitBelowOneMegabyteOrPastCountingIsRefused(_ megabytes: Int) {
        let error = #expect(throws: ScriptError.self) { try Runtime(.init(memoryLimitMegabytes: megabytes)) }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("memoryLimitMegabytes") == true)
    }

    @Test func realLimitsAreAccepted() throws {
        _ = try Runtime(.init(timeout: 0.5, memoryLimitMegabytes: 1))
        _ = try Runtime(.init(timeout: 1e300, memoryLimitMegabytes: 1 << 30))
    }
}

/// Attack lib2 10: `advance(by:)` printed `[timerLoop]` on standard error and returned, where
/// `ck.advance` raises it; `advance(by: .infinity)` returned with the clock unmoved.
@Suite("The clock from Swift")
struct ClockFromSwiftTests {
    @Test func aTimerThatReArmsAtOnceIsThrown() throws {
        let runtime = try Runtime()
        _ = try runtime.load(string: "local function again() ck.after(0, again) end ck.after(0, again)", name: "loop.lua")
        let error = #expect(throws: ScriptError.self) { try runtime.advance(by: 1) }
        #expect(error?.id == .timerLoop)
        #expect(error?.message.contains("loop.lua:1") == true)
        let idle = #expect(throws: ScriptError.self) { try runtime.runDueTimers() }
        #expect(idle?.id == .timerLoop)
    }

    @Test func anInfiniteAdvanceIsRefused() throws {
        let runtime = try Runtime()
        let error = #expect(throws: ScriptError.self) { try runtime.advance(by: .infinity) }
        #expect(error?.id == .badArgument)
    }
}
