import CKTestHelpers
import Foundation
import Testing

/// What a test makes cannot hold the runner past its limits or lose a user's file (the outsider's
/// attack after issue 24): a FIFO named like a spec, output and messages of any size, a worker's
/// pipe held by a background process or a stopped worker, lines above a snapshot's first entry.
@Suite("ckrun test: bounded after the test, nothing lost")
struct TestRunnerBoundsTests {
    func sh(_ fixture: TestRunnerFixture, _ script: String) throws {
        _ = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], directory: fixture.directory.url)
    }

    @Test func discoveryTakesRegularFilesOnlyAndANamedFIFOIsAUsageError() throws {
        let fixture = try TestRunnerFixture(["ok_spec.lua": #"it("ok", function() end)"#])
        try sh(fixture, "mkfifo f_spec.lua")
        let found = try Ckrun.run(["test", "--timeout", "2", "."], directory: fixture.directory.url, timeout: 20)
        #expect(found.status == 0 && found.lastLine == "1 passed, 0 failed", "\(found.stdout)\(found.stderr)")
        let named = try Ckrun.run(["test", "--timeout", "2", "f_spec.lua"], directory: fixture.directory.url, timeout: 20)
        #expect(named.status == 64 && named.stderr.contains("not a regular file"), "\(named.stdout)\(named.stderr)")
    }

    @Test func outputAndMessagesAreCutWithAMark() throws {
        let result = try TestRunnerFixture([
            "p_spec.lua": """
            it("prints", function() local s = string.rep("x", 1024 * 1024) for i = 1, 20 do io.write(s) end error("e") end)
            it("big error", function() error(string.rep("y\\n", 2 * 1024 * 1024)) end)
            """,
        ]).test("p_spec.lua")
        #expect(result.status == 1)
        #expect(result.stdout.contains("[cut: output past 1000000 bytes not kept]"))
        #expect(result.stdout.contains("more bytes not kept]"), "the message's cut")
        #expect(result.stdout.utf8.count < 6_000_000, "\(result.stdout.utf8.count) bytes")
    }

    @Test func linesAboveASnapshotsFirstEntryAreKept() throws {
        let fixture = try TestRunnerFixture([
            "__snapshots__/s_spec.snap": "USER NOTE: keep me\n<<<<<<< HEAD\n== alpha #1\nA\n",
            "s_spec.lua": #"it("alpha", function() assert.tree_snapshot("A") end) it("delta", function() assert.tree_snapshot("D") end)"#,
        ])
        let result = try fixture.test()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let snap = try fixture.read("__snapshots__/s_spec.snap")
        #expect(snap.hasPrefix("USER NOTE: keep me\n<<<<<<< HEAD\n== alpha #1\nA\n"), "\(snap)")
        #expect(snap.contains("== delta #1\nD"), "\(snap)")
    }

    @Test func aBackgroundChildHoldingAWorkersPipeDoesNotHoldTheRun() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("bg", function() os.execute("sleep 40 2>/dev/null &") end)"#,
            "b_spec.lua": #"it("b", function() end)"#,
        ])
        let result = try Ckrun.run(["test", "--jobs", "2", "--timeout", "2", "."], directory: fixture.directory.url, timeout: 25)
        #expect(result.status == 0 && result.lastLine == "2 passed, 0 failed", "\(result.status) \(result.stdout)\(result.stderr)")
    }

    /// A stopped worker is killed and its file fails (before: the run waited forever; the
    /// background `kill -9` only ends the stopped worker for the old binary's sake).
    @Test func aStoppedWorkerFailsItsFile() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("stop", function() os.execute("(sleep 30; kill -CONT $PPID) >/dev/null 2>&1 & kill -STOP $PPID") end)"#,
            "b_spec.lua": #"it("b", function() end)"#,
        ])
        let result = try Ckrun.run(["test", "--jobs", "2", "--timeout", "2", "."], directory: fixture.directory.url, timeout: 20)
        #expect(result.status == 1, "\(result.status) \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("a_spec.lua: its worker process was stopped by a signal"), "\(result.stdout)")
    }

    /// Describe blocks nested 20,000 deep run in linear time and memory (before: each global
    /// read walked every enclosing block, and every block kept its full name: 12 s and 330 MB
    /// at 10,000, about four times that here).
    @Test func deepNestingIsLinear() throws {
        let fixture = try TestRunnerFixture([
            "deep_spec.lua": """
            local function nest(n) if n == 0 then it("leaf", function() end) return end describe("d" .. n, function() nest(n - 1) end) end
            nest(20000)
            """,
        ])
        let result = try Ckrun.run(["test", "--timeout", "5", "deep_spec.lua"], directory: fixture.directory.url, timeout: 15)
        #expect(result.status == 0 && result.lastLine == "1 passed, 0 failed", "\(result.status) \(result.stderr)")
        let filtered = try Ckrun.run(["test", "--timeout", "5", "--filter", "leaf$", "deep_spec.lua"], directory: fixture.directory.url, timeout: 15)
        #expect(filtered.status == 0 && filtered.lastLine == "1 passed, 0 failed", "\(filtered.status) \(filtered.stderr)")
    }
}
