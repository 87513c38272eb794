import CKTestHelpers
import Foundation
import Testing

@Suite("ckrun test: guards, time limits and the Lua spec of the assertions")
struct TestRunnerSafetyTests {
    /// An os.exit(0) does not choose the run's status (SPEC §9): the test that called it failed,
    /// so the run ends 1 (busted's would end 0 there; a nonzero os.exit's status is the run's).
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

    /// atk-safety3 02: `pcall(os.exit, 7)` caught the guard's error and the test passed (busted's
    /// run ends with status 7): the exit fails the test whoever catches it.
    @Test func osExitCaughtByTheTestStillFailsIt() throws {
        let fixture = try TestRunnerFixture(["exit_spec.lua": """
        it("catches os.exit", function() local ok = pcall(os.exit, 7) assert(not ok) end)
        it("still runs", function() end)
        """])
        let result = try fixture.test()
        #expect(result.status == 7, "\(result.stdout)")
        #expect(result.outcomeLines == ["ERROR exit_spec.lua:1: catches os.exit", "ok    exit_spec.lua:2: still runs"], "\(result.stdout)")
        #expect(result.stdout.contains("os.exit(7) was called"), "\(result.stdout)")
    }

    /// busted 2.1.1 (lua5.4) ends with the status os.exit gives: 3 from a helper or a test,
    /// false 1, true 0, the low byte of an integer (-1: 255, 256: 0), a string of one; anything
    /// else is os.exit's own error, a test's error (status 1). ckrun ended 1 for all of them. The
    /// first exit in the run's order decides, serially and under --jobs.
    @Test func osExitGivesTheRunBustedsStatus() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": "it('a', function() end)", "exits.lua": "os.exit(3)"])
        for jobs in [[], ["--jobs", "2"]] {
            let helper = try fixture.test(["--helper", "exits.lua", "spec"] + jobs)
            #expect(helper.status == 3, "\(jobs): \(helper.stdout)")
        }
        // A zero status does not choose (SPEC §9: the test that called it failed): the later os.exit(9) does.
        let forms: [(code: String, status: Int32)] = [("3", 3), ("false", 1), ("true", 0), ("", 0), ("3, true", 3), ("2.0", 2),
                                                      ("256", 0), ("-1", 255), ("'7'", 7), ("'x'", 1), ("2.5", 1), ("{}", 1)]
        for form in forms {
            try fixture.directory.write("spec/b_spec.lua", "it('exits', function() os.exit(\(form.code)) end)")
            try fixture.directory.write("spec/c_spec.lua", "it('later', function() os.exit(9) end)")
            for jobs in [[], ["--jobs", "2"]] {
                let result = try fixture.test(["spec"] + jobs)
                let bad = ["'x'", "2.5", "{}"].contains(form.code)
                #expect(result.status == (bad || form.status == 0 ? 9 : form.status), "os.exit(\(form.code)) \(jobs): \(result.stdout)")
                #expect(result.stdout.contains(bad ? "bad argument #1 to 'exit'" : "os.exit("), "\(result.stdout)")
            }
        }
        // A zero first does not hide a later nonzero one, in the same file or another (atk-new4 02).
        try fixture.directory.write("spec/b_spec.lua", "it('zero', function() os.exit(0) end) it('three', function() os.exit(3) end)")
        try fixture.directory.write("spec/c_spec.lua", "it('later', function() os.exit(true) end)")
        for jobs in [[], ["--jobs", "2"]] { #expect(try fixture.test(["spec"] + jobs).status == 3, "\(jobs)") }
        try fixture.directory.write("spec/b_spec.lua", "it('zero', function() os.exit(0) end)")
        try fixture.directory.write("spec/c_spec.lua", "it('later', function() os.exit(4) end)")
        for jobs in [[], ["--jobs", "2"]] { #expect(try fixture.test(["spec"] + jobs).status == 4, "\(jobs)") }
        // Under --sandbox the checkout's os.exit does not choose the status either.
        try fixture.directory.write("spec/b_spec.lua", "it('exits', function() os.exit(0) end)")
        #expect(try fixture.test("--sandbox", "spec").status == 1)
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
        it("sets a hook of its own", function() debug.sethook(function() end, "", 1e6) end)
        it("loops in a coroutine made under that hook", function() coroutine.wrap(function() while true do end end)() end)
        """])
        let start = Date()
        let result = try fixture.test("--timeout", "0.3")
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(result.outcomeLines == ["ERROR co_spec.lua:1: resumes", "ERROR co_spec.lua:2: wraps",
                                        "ERROR co_spec.lua:3: nests", "ok    co_spec.lua:6: runs after",
                                        "ok    co_spec.lua:7: sets a hook of its own",
                                        "ERROR co_spec.lua:8: loops in a coroutine made under that hook"])
        #expect(result.stdout.components(separatedBy: "[timeout]").count == 5)
        #expect(result.lastLine == "2 passed, 4 failed")
        // Under --coverage the main thread runs a line hook: a coroutine's loop is stopped too.
        let covered = try fixture.test("--timeout", "0.3", "--coverage", "--filter", "wraps")
        #expect(covered.outcomeLines == ["ERROR co_spec.lua:2: wraps"])
        #expect(covered.status == 1)
    }

    /// The runner's time limit function is in no table a test can reach (under --sandbox a
    /// test cannot reach the runner's upvalues either).
    @Test func aTestCannotClearItsOwnTimeLimit() throws {
        let fixture = try TestRunnerFixture(["clear_spec.lua": """
        it("clears", function()
          local T = rawget(_G, "(ckrun test)") or {}
          local clear = T.turn or T.deadline
          if clear then clear(nil) end
          while true do end
        end)
        """])
        let start = Date()
        let result = try fixture.test("--sandbox", "--timeout", "0.3")
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(result.outcomeLines == ["ERROR clear_spec.lua:1: clears"])
        #expect(result.stdout.contains("[timeout]"))
    }

    @Test func aTestCannotSwallowItsTimeoutWithPcall() throws {
        let fixture = try TestRunnerFixture(["swallow_spec.lua": """
        it("retries forever", function() while true do pcall(function() while true do end end) end end)
        """])
        let result = try fixture.test("--timeout", "0.3")
        #expect(result.outcomeLines == ["ERROR swallow_spec.lua:1: retries forever"])
        #expect(result.lastLine == "0 passed, 1 failed")
    }

    /// An error object's __tostring is user code: one that never returns is stopped under a
    /// limit of its own, one that raises is named, and the run goes on (it hung the runner).
    @Test func anErrorObjectsTostringCannotHoldTheRun() throws {
        let fixture = try TestRunnerFixture(["tostring_spec.lua": """
        it("loops", function() error(setmetatable({}, {__tostring = function() while true do end end})) end)
        it("raises", function() error(setmetatable({}, {__tostring = function() error("no text") end})) end)
        it("next", function() end)
        """])
        let result = try Ckrun.run(["test", "--timeout", "0.3", "."], directory: fixture.directory.url, timeout: 20)
        #expect(result.outcomeLines == ["ERROR tostring_spec.lua:1: loops", "ERROR tostring_spec.lua:2: raises", "ok    tostring_spec.lua:3: next"])
        #expect(result.stdout.contains("conversion to text failed: [timeout]"))
        #expect(result.stdout.contains("conversion to text failed: tostring_spec.lua:2: no text"))
    }

    /// Past the deadline the runner's own code finishes its step (to report the [timeout]);
    /// a chunk named like the runner's gets a bounded number of steps, then is stopped too.
    @Test func aChunkNamedLikeTheRunnersIsStoppedToo() throws {
        let fixture = try TestRunnerFixture(["forged_spec.lua": """
        it("forges", function() load("while true do end", "=(ckrun test: forged)")() end)
        it("wraps", function() coroutine.wrap(function() while true do end end)() end)
        """])
        let result = try Ckrun.run(["test", "--timeout", "0.3", "."], directory: fixture.directory.url, timeout: 20)
        #expect(result.outcomeLines == ["ERROR forged_spec.lua:1: forges", "ERROR forged_spec.lua:2: wraps"])
        // Named where the spec called it: no message names a chunk named like the runner's (atk-new 02).
        #expect(result.stdout.contains("[timeout] forged_spec.lua:1: the script ran past"), "\(result.stdout)")
        // A catalogued error through coroutine.wrap keeps its id first (lua5.4's wrap puts the
        // caller's position before a plain message only).
        #expect(result.stdout.contains("   [timeout] forged_spec.lua:2: the script ran past"))
    }

    /// The runner's table is no global (issue 24, class 2; it was one a test could reach, issue
    /// 13, class 7): whatever a test changes, the limit of the tests after it holds.
    @Test func aTestCannotLiftTheNextTestsTimeLimit() throws {
        let fixture = try TestRunnerFixture(["lift_spec.lua": """
        it("lifts", function()
          local T = rawget(_G, "(ckrun test)") or { opts = {} }
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

    /// A link back to a directory being searched is not followed again (busted 2.1.1 never ends
    /// there); a link to another directory is searched as busted searches it, so its files run
    /// under both names.
    @Test func symlinkLoopsEndAndLinkedDirectoriesRunAsBustedRunsThem() throws {
        let fixture = try TestRunnerFixture(["d/sub/a_spec.lua": "it('a', function() end)", "b_spec.lua": "it('b', function() end)"])
        let root = fixture.directory.url
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("d/sub/up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("d/sub/top").path, withDestinationPath: "../..")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("d/again").path, withDestinationPath: "sub")
        let result = try fixture.test()
        #expect(result.status == 0)
        #expect(result.outcomeLines == ["ok    b_spec.lua:1: b", "ok    d/again/a_spec.lua:1: a", "ok    d/sub/a_spec.lua:1: a"])
        #expect(result.lastLine == "3 passed, 0 failed")
    }

    @Test func theAssertionLibrarysOwnSpecPasses() throws {
        let result = try Ckrun.run(["test", "Tests/lua"], directory: Ckrun.packageRoot, timeout: 900)
        let notPassing = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("ok ") }
        #expect(result.status == 0, "\(notPassing.joined(separator: "\n"))\n\(result.stderr)")
        let counts = result.lastLine.split(separator: " ")
        #expect(counts.count >= 4 && Int(counts[0]) ?? 0 >= 40 && result.lastLine.contains(" passed, 0 failed"))
    }
}
