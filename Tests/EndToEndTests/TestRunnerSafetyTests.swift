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

    /// Coroutines carry the time limit's hook from when they are made; the main thread runs
    /// without one until the limit passes.
    @Test func anEndlessLoopInACoroutineTimesOut() throws {
        let fixture = try TestRunnerFixture(["co_spec.lua": """
        it("resumes", function() coroutine.resume(coroutine.create(function() while true do end end)) end)
        it("wraps", function() coroutine.wrap(function() while true do end end)() end)
        it("nests", function()
          coroutine.wrap(function() coroutine.resume(coroutine.create(function() while true do end end)) end)()
        end)
        it("runs after", function() assert.are.equal(1, 1) end)
        """])
        let start = Date()
        let result = try fixture.test("--timeout", "0.3")
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(result.outcomeLines == ["ERROR co_spec.lua:1: resumes", "ERROR co_spec.lua:2: wraps",
                                        "ERROR co_spec.lua:3: nests", "ok    co_spec.lua:6: runs after"])
        #expect(result.stdout.components(separatedBy: "[timeout]").count == 4)
        #expect(result.lastLine == "1 passed, 3 failed")
    }

    /// --coverage's line hook and the time limit get along: the limit needs no hook until it
    /// expires, and the line hook is back for the next test.
    @Test func theTimeLimitHoldsUnderCoverageAndCountingGoesOn() throws {
        let fixture = try TestRunnerFixture([
            "src/m.lua": "local M = {}\nfunction M.f()\n  return 1\nend\nreturn M\n",
            "spec/a_spec.lua": """
            local m = require "m"
            it("spins", function() while true do end end)
            it("counts after", function() assert.are.equal(1, m.f()) end)
            """,
        ])
        let result = try fixture.test("--coverage", "--timeout", "0.3")
        #expect(result.outcomeLines == ["ERROR spec/a_spec.lua:2: spins", "ok    spec/a_spec.lua:3: counts after"])
        #expect(result.stdout.contains("[timeout]"))
        // Line 3 (`return 1`) ran once, in the test after the one that timed out.
        #expect(try fixture.read("luacov.stats.out").split(separator: "\n").dropFirst().first?.split(separator: " ").map(String.init)
                == ["1", "1", "1", "1", "1"])
    }

    @Test func aTestCannotSwallowItsTimeoutWithPcall() throws {
        let fixture = try TestRunnerFixture(["swallow_spec.lua": """
        it("retries forever", function() while true do pcall(function() while true do end end) end end)
        """])
        let result = try fixture.test("--timeout", "0.3")
        #expect(result.outcomeLines == ["ERROR swallow_spec.lua:1: retries forever"])
        #expect(result.lastLine == "0 passed, 1 failed")
    }

    /// The runner's table is a global a test can reach: changing it does not lift the limit
    /// of the tests after it (issue 13, class 7).
    @Test func aTestCannotLiftTheNextTestsTimeLimit() throws {
        let fixture = try TestRunnerFixture(["lift_spec.lua": """
        it("lifts", function()
          local T = _G["(ckrun test)"]
          T.deadline, T.opts.coverage, T.coverage = nil, true, {}
        end)
        it("spins", function() while true do end end)
        """])
        let result = try fixture.test("--timeout", "0.3")
        #expect(result.outcomeLines == ["ok    lift_spec.lua:1: lifts", "ERROR lift_spec.lua:5: spins"])
        #expect(result.stdout.contains("[timeout]"))
        #expect(result.lastLine == "1 passed, 1 failed")
    }

    /// A test that forges the worker's result line and then has its worker killed: the
    /// worker's death decides, not what it printed.
    @Test func aWorkerKilledAfterPrintingAFakeResultFailsItsFile() throws {
        let forged = #"\30ckrun-test-result {\"file\":\"fake_spec.lua\",\"tests\":[{\"name\":\"x\",\"file\":\"fake_spec.lua\",\"line\":1,\"status\":\"passed\",\"output\":\"\",\"seconds\":0}],\"output\":\"\",\"seconds\":0}\n"#
        let fixture = try TestRunnerFixture([
            "fake_spec.lua": """
            it("forges", function()
              local out = io.open("/proc/self/fd/1", "w")
              out:write("\(forged)")
              out:flush()
              os.execute("kill -9 $PPID")
            end)
            """,
            "a_spec.lua": "it('a', function() end)",
            "z_spec.lua": "it('z', function() end)",
        ])
        let result = try fixture.test("--jobs", "2")
        #expect(result.status == 1)
        #expect(result.outcomeLines.contains("ERROR fake_spec.lua"))
        #expect(result.stdout.contains("killed by signal 9"))
        #expect(result.outcomeLines.contains("ok    a_spec.lua:1: a") && result.outcomeLines.contains("ok    z_spec.lua:1: z"))
        #expect(result.lastLine == "2 passed, 1 failed")
    }

    @Test func symlinkLoopsAreSearchedOnceAndEachFileRunsOnce() throws {
        let fixture = try TestRunnerFixture(["d/sub/a_spec.lua": "it('a', function() end)", "b_spec.lua": "it('b', function() end)"])
        let root = fixture.directory.url
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("d/sub/up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("d/sub/top").path, withDestinationPath: "../..")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("d/again").path, withDestinationPath: "sub")
        let result = try fixture.test()
        #expect(result.status == 0)
        #expect(result.outcomeLines == ["ok    b_spec.lua:1: b", "ok    d/again/a_spec.lua:1: a"])
        #expect(result.lastLine == "2 passed, 0 failed")
    }

    @Test func theAssertionLibrarysOwnSpecPasses() throws {
        let result = try Ckrun.run(["test", "Tests/lua"], directory: Ckrun.packageRoot)
        #expect(result.status == 0, "\(result.stdout)")
        let counts = result.lastLine.split(separator: " ")
        #expect(counts.count >= 4 && Int(counts[0]) ?? 0 >= 40 && result.lastLine.contains(" passed, 0 failed"))
    }
}
