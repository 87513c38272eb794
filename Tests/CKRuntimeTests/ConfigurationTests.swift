import CKRuntime
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

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

/// Attack lib 16: after one `[memoryLimit]`, endless loops that allocate nothing were reported
/// as `[memoryLimit]` too. Each test runs in a process of its own: the watchdog serves one
/// timed runtime at a time (see `LimitTests`).
@Suite("Which limit struck")
struct LimitReportTests {
    @Test func aTimeoutAfterAMemoryLimitIsATimeout() async {
        await #expect(processExitsWith: .success) {
            let runtime = try Runtime(.init(timeout: 1.5, memoryLimitMegabytes: 16))
            do { try runtime.load(string: "local t = {} while true do t[#t+1] = {} end", name: "alloc.lua"); exit(1) } catch let error as ScriptError {
                guard error.id == .memoryLimit else { exit(2) }
            } catch { exit(5) }
            for _ in 0..<2 {
                do { _ = try runtime.load(string: "while true do end", name: "loop.lua"); exit(3) } catch let error as ScriptError {
                    guard error.id == .timeout, error.limit == .timeout else { exit(4) }
                } catch { exit(5) }
            }
            exit(0)
        }
    }

    /// Sweep15 atk-lib 03: the program's own 200,000-entry dictionary, passed to a no-op function
    /// under a short timeout, was made into a Lua table under the limit, in Swift that no hook
    /// stops: the process ended ("a C function … ran past the time limit"), or `[timeout]` blamed
    /// a function with no loop. Made before the limit starts, the call returns; the limit holds.
    @Test func theProgramsOwnArgumentsAreNotTheScriptsTime() async {
        await #expect(processExitsWith: .success) {
            let runtime: Runtime, noop: ScriptObject
            do {
                runtime = try Runtime(.init(timeout: 0.01))
                noop = try runtime.load(string: "return function(t) return 0 end", name: "noop.lua")
            } catch { exit(1) }
            var fields: [String: ScriptValue] = [:]
            for i in 0..<200_000 { fields["key\(i)"] = .int(i) }
            do { _ = try noop.call([.dictionary(fields)]) } catch { exit(2) }
            do { _ = try runtime.load(string: "while true do end", name: "loop.lua"); exit(3) } catch let error as ScriptError {
                exit(error.id == .timeout ? 0 : 4)
            } catch { exit(5) }
        }
    }

    /// Attack lib2 13: the library's own start-up ran under the program's timeout, and a tiny
    /// one made `Runtime.init` throw `[timeout]` at `(CKRuntime glue)`.
    @Test func startingUpIsNotTimed() async {
        await #expect(processExitsWith: .success) {
            let runtime: Runtime
            do { runtime = try Runtime(.init(timeout: 1e-6)) } catch { exit(1) }
            do { try runtime.load(string: "while true do end", name: "loop.lua"); exit(2) } catch let error as ScriptError {
                exit(error.id == .timeout ? 0 : 3)
            } catch { exit(4) }
        }
    }
}

/// Attack lib2 12: compiling ran where the allocator lets Swift pass the limit, so a chunk with a
/// 100 MB string literal loaded under an 8 MB limit and the state kept it.
@Suite("Compiling counts against the memory limit")
struct CompileLimitTests {
    @Test func aChunkTooBigForTheLimitIsMemoryLimit() throws {
        let runtime = try Runtime(.init(memoryLimitMegabytes: 8))
        let source = "big = '" + String(repeating: "x", count: 20 << 20) + "' return #big"
        let error = #expect(throws: ScriptError.self) { try runtime.load(string: source, name: "big.lua") }
        #expect(error?.id == .memoryLimit, "\(error?.message ?? "")")
        #expect(error?.message.contains("compil") == true, "\(error?.message ?? "")")
        #expect(try runtime.load(string: "return 1 + 1").value() == 2, "the runtime stays usable")
    }
}

/// Attack embed 11: `advance(by:)` gave each timer a whole timeout of its own, so a re-arming
/// timer over a long advance ran for hours; the call as a whole is now bounded by the timeout.
/// In a process of its own: before the fix the call never returned (exit 9 after 20 s).
@Suite("A call that fires many timers is one call under the timeout")
struct TimersShareTheCallsLimitTests {
    @Test func aLongAdvanceOfAReArmingTimerStopsAtTheTimeout() async {
        await #expect(processExitsWith: .success) {
            Thread.detachNewThread { sleep(20); exit(9) }
            let runtime = try Runtime(.init(timeout: 1))
            _ = try runtime.load(string: "N = 0 local function tick() N = N + 1 ck.after(1, tick) end ck.after(1, tick)", name: "tick.lua")
            let started = ContinuousClock.now
            do { try runtime.advance(by: 1e9); exit(2) } catch let error as ScriptError {
                guard error.id == .timeout, error.limit == .timeout, error.message.contains("timers this call fired"),
                      !error.message.contains("find the loop") else { exit(3) }
            }
            guard ContinuousClock.now - started < .seconds(5) else { exit(4) }
            // The clock stays where the run stopped, not at the end it was asked for.
            guard let now = try? runtime.now, now < 1e8 else { exit(6) }
            // The runtime goes on: the next call has its own limit.
            exit(try runtime.load(string: "return 1").value() == 1 ? 0 : 5)
        }
    }

    /// Ctrl-C between two timers was forgotten (each timer's turn ended it): the same advance
    /// under no timeout ran on after a SIGINT until killed.
    @Test func aLongAdvanceOfAReArmingTimerStopsAtCtrlC() async {
        await #expect(processExitsWith: .success) {
            Thread.detachNewThread { sleep(20); exit(9) }
            let runtime = try Runtime()
            _ = try runtime.load(string: "N = 0 local function tick() N = N + 1 ck.after(1, tick) end ck.after(1, tick)", name: "tick.lua")
            Thread.detachNewThread { usleep(500_000); kill(getpid(), SIGINT) }
            do { try runtime.advance(by: 1e9); exit(2) } catch let error as ScriptError {
                guard error.message.contains("interrupted") else { exit(3) }
            }
            exit(try runtime.load(string: "return 1").value() == 1 ? 0 : 5)
        }
    }
}
