import CKTestHelpers
import Foundation
import Testing

/// A Ctrl-C under `--jobs` reaches the programs the running tests started, as a terminal's
/// reaches a serial run's (outside attack atk-new, break 19: the parent signalled the worker
/// alone, so a test waiting on `os.execute("sleep 6")` ran its 6 s and passed: a different report
/// from `--jobs 1`'s, and the user's Ctrl-C did nothing).
@Suite("ckrun test --jobs: Ctrl-C reaches the tests' programs")
struct TestRunnerJobsInterruptTests {
    @Test func aTestWaitingOnAProgramStopsAtOnce() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
                it("child", function()
                  io.open("started", "w"):close()
                  local ok, how, code = os.execute("sleep 6")
                  assert.is_true(ok, "child ended by " .. tostring(how) .. " " .. tostring(code))
                end)
                """,
            "b_spec.lua": #"it("b", function() end)"#,
        ])
        let script = """
            "$0" test --jobs 2 . > out 2>&1 &
            p=$!
            for i in $(seq 100); do [ -e started ] && break; sleep 0.05; done
            sleep 0.2; kill -INT $p; start=$(date +%s)
            wait $p; echo "ended after $(( $(date +%s) - start )) s"
            """
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                          directory: fixture.directory.url, timeout: 30)
        let out = try fixture.read("out")
        #expect(result.stdout.contains("ended after 0 s") || result.stdout.contains("ended after 1 s"), "\(result.stdout)\(out)")
        #expect(out.contains("child ended by signal 2"), "\(out)")
    }
}
