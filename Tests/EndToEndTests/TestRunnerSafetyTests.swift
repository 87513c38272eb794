import CKTestHelpers
import Foundation
import Testing

@Suite("ckrun test: guards, time limits and the Lua spec of the assertions")
struct TestRunnerSafetyTests {
    @Test func osExitFailsTheTestInsteadOfEndingTheRun() throws {
        let fixture = try TestRunnerFixture(["exit_spec.lua": """
        it("exits", function() os.exit(0) end)
        it("still runs", function() end)
        """])
        let result = try fixture.test()
        #expect(result.status == 1)
        #expect(result.outcomeLines == ["ERROR exit_spec.lua:1: exits", "ok    exit_spec.lua:2: still runs"])
        #expect(result.stdout.contains("[testFailure] exit_spec.lua:1: os.exit(0) was called"))
        #expect(result.lastLine == "1 passed, 1 failed")
    }

    @Test func anEndlessLoopTimesOutAndTheRunGoesOn() throws {
        let fixture = try TestRunnerFixture(["loop_spec.lua": """
        it("spins", function() while true do end end)
        it("runs after", function() assert.are.equal(1, 1) end)
        """])
        let start = Date()
        let result = try fixture.test("--timeout", "0.3")
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(result.status == 1)
        #expect(result.outcomeLines == ["ERROR loop_spec.lua:1: spins", "ok    loop_spec.lua:2: runs after"])
        #expect(result.stdout.contains("[timeout]"))
        #expect(result.lastLine == "1 passed, 1 failed")
    }

    @Test func aTestCannotSwallowItsTimeoutWithPcall() throws {
        let fixture = try TestRunnerFixture(["swallow_spec.lua": """
        it("retries forever", function() while true do pcall(function() while true do end end) end end)
        """])
        let result = try fixture.test("--timeout", "0.3")
        #expect(result.outcomeLines == ["ERROR swallow_spec.lua:1: retries forever"])
        #expect(result.lastLine == "0 passed, 1 failed")
    }

    @Test func theAssertionLibrarysOwnSpecPasses() throws {
        let result = try Ckrun.run(["test", "Tests/lua"], directory: Ckrun.packageRoot)
        #expect(result.status == 0, "\(result.stdout)")
        let counts = result.lastLine.split(separator: " ")
        #expect(counts.count == 4 && Int(counts[0]) ?? 0 >= 40 && result.lastLine.hasSuffix(" passed, 0 failed"))
    }
}
