import CKTestHelpers
import Foundation
import Testing

/// A script's own `debug.sethook` cannot take --timeout or Ctrl-C off the thread that runs: a hook
/// lives on one thread, and the watchdog's signal follows the coroutine running (the outsider's
/// breaks: a coroutine that cleared its hook looped until the watchdog ended the whole process).
@Suite("Debug hooks and the limits")
struct HookLimitsTests {
    @Test func everyWayToClearACoroutinesHookStillTimesOut() throws {
        let lines = [
            "x = 41",
            "coroutine.wrap(function() debug.sethook() while true do end end)()",
            "local co = coroutine.create(function() while true do end end) debug.sethook(co) coroutine.resume(co)",
            "early = coroutine.create(function() debug.sethook(function() end, 'l') while true do end end)",
            "coroutine.resume(early)",
            "while true do debug.sethook() end",
            "print(x + 1)",
        ]
        let r = try Ckrun.run(["repl", "--timeout", "0.5"], stdin: lines.joined(separator: "\n") + "\n", timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "42\n", "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "[timeout] stdin:1: ").count == 5, "\(r.stderr)")
        #expect(!r.stderr.contains("cannot be stopped"))
    }

    /// atk-safety3 04: a hook function that loops cannot be stopped (Lua runs hooks with hooks
    /// off), and the last resort blamed "a C function or a finalizer"; its one wording names the
    /// debug hook, in a script and in `ckrun test`, whose JUnit keeps the tests that finished.
    @Test func aLoopingHookFunctionIsNamedByTheLastResort() throws {
        let r = try Ckrun.run(["--timeout", "0.5", "-e", #"debug.sethook(function() while true do end end, "", 1) local x = 1"#], timeout: 30)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("[timeout] (command line):1: a C function, a finalizer (__gc) or a debug hook ran past the time limit and cannot be stopped; the process ends"), "\(r.stderr)")
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            it("passes first", function() end)
            it("hook loops", function() debug.sethook(function() while true do end end, "", 1) local x = 1 end)
            """,
        ])
        let run = try fixture.test("--timeout", "0.5", "--junit", "j.xml")
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("a_spec.lua:2: a C function, a finalizer (__gc) or a debug hook ran past the time limit"), "\(run.stdout)")
        #expect(try fixture.read("j.xml").contains(#"name="passes first""#))
    }

    /// The limit strikes in the coroutine running, so its error names the loop's line (it named
    /// none: the main thread's hook struck after the coroutine's C boundary, break 02).
    @Test func aTimeoutInACoroutineNamesTheLoopsLine() throws {
        let dir = try TemporaryDirectory()
        try dir.write("co.lua", "local co = coroutine.wrap(function()\n  while true do end\nend)\nco()\n")
        let r = try Ckrun.run(["--timeout", "0.5", "co.lua"], directory: dir.url, timeout: 30)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout] co.lua:2: the script ran past its time limit"), "\(r.stderr)")
    }

    @Test func aTestThatClearsItsCoroutinesHookFailsAloneUnderTheTimeLimit() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            it("ok1", function() end)
            it("hook", function() coroutine.wrap(function() debug.sethook() while true do end end)() end)
            it("ok2", function() end)
            """,
            "b_spec.lua": "it(\"b\", function() end)\n",
        ])
        let result = try fixture.test("--timeout", "0.5")
        #expect(result.outcomeLines == ["ok    a_spec.lua:1: ok1", "ERROR a_spec.lua:2: hook",
                                        "ok    a_spec.lua:3: ok2", "ok    b_spec.lua:1: b"], "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[timeout] a_spec.lua:2: "))
    }

    /// Ctrl-C reaches a coroutine that cleared its hook too (lua.c's reached the main thread only).
    @Test func ctrlCStopsACoroutineThatClearedItsHook() throws {
        let run = try RunningCkrun(["repl"], input: "coroutine.wrap(function() debug.sethook() while true do end end)()\nprint('after')\n")
        let process = run.process
        Thread.sleep(forTimeInterval: 1)
        process.interrupt()
        for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }   // not stopped: the test fails below
        let (exitedCleanly, out, err) = run.finish()
        #expect(exitedCleanly, "\(err)")
        #expect(err.hasPrefix("[interrupted] stdin:1: stopped by Ctrl-C"), "\(err)")
        #expect(out == "after\n")
    }

    /// coroutine.wrap gives lua5.4's errors: its caller's file:line before a plain message, the id
    /// first in a catalogued one.
    @Test func wrapKeepsTheIdOfACataloguedError() throws {
        let r = try Ckrun.run(["-e", """
            local function call(f) return select(2, pcall(function() f() end)) end
            print(call(coroutine.wrap(function() error('plain') end)))
            print(call(coroutine.wrap(function() ck.component() end)))
            local co = coroutine.wrap(function() end) co()
            print(call(co))
            """])
        #expect(r.stdout.split(separator: "\n").map(String.init) == [
            "(command line):1: (command line):2: plain",
            "[badArgument] (command line):3: ck.component: argument #1 (name) must be a string, got no value",
            "(command line):1: cannot resume dead coroutine",
        ], "\(r.stderr)")
    }
}
