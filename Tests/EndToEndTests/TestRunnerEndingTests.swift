import CKTestHelpers
import Foundation
import Testing

/// Every way a run ends before its last file still writes what it collected to every report it
/// was asked for, with why, and a status that says so: the watchdog's last resort (a test stuck
/// in a C function), SIGTERM, SIGHUP, Ctrl-C under --jobs (before: a serial run wrote no JUnit
/// file and no TAP plan; a signal ended any run with neither).
@Suite("ckrun test: a run that has to end still reports")
struct TestRunnerEndingTests {
    static let files = [
        "spec/a_spec.lua": #"it("a1", function() end) it("a2", function() assert.equal(1,2) end)"#,
        "spec/b_spec.lua": #"it("pat", function() string.find(string.rep("a", 40), string.rep("a*", 30) .. "b") end) it("after", function() end)"#,
        "spec/c_spec.lua": #"it("c1", function() end)"#,
    ]

    @Test func theWatchdogsLastResortInASerialRunWritesTheReports() throws {
        let fixture = try TestRunnerFixture(Self.files)
        let result = try Ckrun.run(["test", "--timeout", "1", "-o", "tap", "--junit", "j.xml", "spec"],
                                   directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stdout.contains("not ok 3 - spec/b_spec.lua"), "\(result.stdout)")
        #expect(result.stdout.contains("[timeout] spec/b_spec.lua:1: a C function"), "the line it struck: \(result.stdout)")
        #expect(result.lines.contains("1..3"), "\(result.stdout)")
        let junit = try fixture.read("j.xml")
        #expect(junit.contains("a2") && junit.contains("[timeout] spec/b_spec.lua:1:"), "\(junit)")
    }

    /// Sends `signal` to `ckrun test --jobs JOBS -o tap --junit j.xml spec` after 1.5 s (`twice`:
    /// again 0.5 s later); its status (`status N`) and what it wrote (out.txt).
    func signalled(_ fixture: TestRunnerFixture, _ signal: String, jobs: String, twice: Bool = false) throws -> (String, String) {
        // A child of a non-interactive shell ignores SIGINT: `trap - INT` gives it the default back.
        let again = twice ? "sleep 0.5; kill -\(signal) $pid;" : ""
        let script = """
        trap - INT; "$0" test --jobs \(jobs) -o tap --junit j.xml spec > out.txt 2>&1 & pid=$!
        sleep 1.5; kill -\(signal) $pid; \(again) wait $pid; echo "status $?"
        """
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                          directory: fixture.directory.url, timeout: 30)
        return (result.stdout, try fixture.read("out.txt"))
    }

    /// SIGTERM and SIGHUP, serial and under --jobs, and a second Ctrl-C (the first cannot stop a
    /// test stuck in a C function): the reports closed, then the signal's end.
    @Test(arguments: [("TERM", "1"), ("TERM", "2"), ("HUP", "1"), ("INT", "1"), ("INT", "2")])
    func aSignalEndsTheRunWithItsReports(signal: String, jobs: String) throws {
        var files = Self.files
        if signal != "INT" { files["spec/b_spec.lua"] = #"it("loop", function() while true do end end)"# }
        let fixture = try TestRunnerFixture(files)
        let (status, out) = try signalled(fixture, signal, jobs: jobs, twice: signal == "INT")
        let number = ["TERM": 15, "HUP": 1, "INT": 2][signal]!
        #expect(status.contains("status \(128 + number)"), "\(status) \(out)")
        // Under --jobs c_spec.lua finished while b_spec.lua ran: TAP lists it as JUnit does (its
        // plan said 1..3 without it, atk-new2 05).
        let plan = jobs == "1" ? "1..3" : "1..4"
        #expect(out.contains("ok 1 - a1") && out.contains(plan) && out.contains("[interrupted] stopped by"), "\(out)")
        if jobs != "1" { #expect(out.contains("ok 3 - c1"), "\(out)") }
        let junit = try fixture.read("j.xml")
        #expect(junit.contains("a2") && junit.contains("[interrupted] stopped by"), "\(junit)")
    }

    /// A first Ctrl-C stops the running test and the run goes on, as busted's does, under
    /// --jobs as in one process (before: it ended a --jobs run at once, with no report).
    @Test func aFirstCtrlCUnderJobsStopsTheTestAsASerialRunDoes() throws {
        var files = Self.files
        files["spec/b_spec.lua"] = #"it("loop", function() while true do end end) it("after", function() end)"#
        let fixture = try TestRunnerFixture(files)
        for jobs in ["1", "2"] {
            let (status, out) = try signalled(fixture, "INT", jobs: jobs)
            #expect(status.contains("status 1"), "\(jobs): \(status) \(out)")
            #expect(out.contains("not ok 3 - loop") && out.contains("stopped by Ctrl-C") && out.contains("ok 5 - c1") && out.contains("1..5"), "\(jobs): \(out)")
        }
    }

    /// Ctrl-C names where it struck in the test's own code, never the runner's chunk (atk-new 02:
    /// "[interrupted] (ckrun test: language):163: stopped by Ctrl-C"), serial and under --jobs.
    @Test func ctrlCNamesTheTestsLineNotTheRunnersChunk() throws {
        var files = Self.files
        files["spec/b_spec.lua"] = #"it("slow", function() local t = os.time(); while os.time() < t + 30 do end end)"#
        let fixture = try TestRunnerFixture(files)
        for jobs in ["1", "2"] {
            let (_, out) = try signalled(fixture, "INT", jobs: jobs)
            #expect(out.contains("[interrupted] spec/b_spec.lua:1: stopped by Ctrl-C") && !out.contains("(ckrun test"), "\(jobs): \(out)")
        }
    }

    /// A finalizer looping as a file's state closes: JUnit has one <testsuite> for the file with
    /// its test and a bare <error>, serial and under --jobs (atk-new 09: two suites serially, a
    /// fake <testcase line="0"> counted as a test under --jobs).
    @Test func aCloseTimeoutIsABareErrorInTheFilesOneSuite() throws {
        let fixture = try TestRunnerFixture([
            "spec/f_spec.lua": "it(\"f1\", function() end)\nG = setmetatable({}, {__gc = function() while true do end end})\n",
            "spec/g_spec.lua": #"it("g1", function() end)"#,
        ])
        for jobs in ["1", "2"] {
            _ = try Ckrun.run(["test", "--timeout", "1", "--jobs", jobs, "--junit", "j.xml", "spec"], directory: fixture.directory.url, timeout: 30)
            let junit = try fixture.read("j.xml")
            #expect(junit.components(separatedBy: "<testsuite name=\"spec/f_spec.lua\"").count == 2, "\(jobs): \(junit)")
            #expect(junit.contains("<testsuite name=\"spec/f_spec.lua\" tests=\"1\" failures=\"0\" errors=\"1\""), "\(jobs): \(junit)")
            #expect(!junit.contains("line=\"0\""), "\(jobs): \(junit)")
        }
    }
}
