import CKRuntime
import Testing

/// Attack embed 10: Swift Testing runs tests in parallel, and each test owning a runtime with a
/// timeout (as the docs' examples write it) failed at once with `[timerBusy]` but one. A timed
/// call now waits for the process's timer (within its own timeout) instead.
@Suite("Timed runtimes on parallel threads")
struct ParallelTimedRuntimesTests {
    @Test(arguments: 0..<8) func eachTestOwnsATimedRuntime(_ i: Int) throws {
        let runtime = try Runtime(.init(timeout: 5, memoryLimitMegabytes: 64))
        let sum = try runtime.load(string: "return function(n) local s = 0 for i = 1, n do s = s + i end return s end", name: "t\(i).lua")
        for _ in 0..<5 { #expect(try sum.call([.int(200_000)])[0].intValue == 20_000_100_000) }
    }
}
