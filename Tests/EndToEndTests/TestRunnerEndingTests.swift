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
        #expect(result.stdout.contains("[timeout] spec/b_spec.lua: a C function"), "\(result.stdout)")
        #expect(result.lines.contains("1..3"), "\(result.stdout)")
        let junit = try fixture.read("j.xml")
        #expect(junit.contains("a2") && junit.contains("[timeout] spec/b_spec.lua"), "\(junit)")
    }

    /// SIGTERM and SIGHUP, serial and under --jobs, and Ctrl-C under --jobs (a serial run's first
    /// Ctrl-C stops the running test, as busted's does): the reports closed, then the signal's end.
    @Test(arguments: [("TERM", "1"), ("TERM", "2"), ("HUP", "1"), ("INT", "2")])
    func aSignalEndsTheRunWithItsReports(signal: String, jobs: String) throws {
        var files = Self.files
        files["spec/b_spec.lua"] = #"it("loop", function() while true do end end)"#
        let fixture = try TestRunnerFixture(files)
        // A child of a non-interactive shell ignores SIGINT: `trap - INT` gives it the default back.
        let script = """
        trap - INT; "$0" test --jobs \(jobs) -o tap --junit j.xml spec > out.txt 2>&1 & pid=$!
        sleep 1.5; kill -\(signal) $pid; wait $pid; echo "status $?"
        """
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                          directory: fixture.directory.url, timeout: 30)
        let out = try fixture.read("out.txt")
        let number = ["TERM": 15, "HUP": 1, "INT": 2][signal]!
        #expect(result.stdout.contains("status \(128 + number)"), "\(result.stdout) \(out)")
        #expect(out.contains("ok 1 - a1") && out.contains("1..3") && out.contains("[interrupted] stopped by"), "\(out)")
        let junit = try fixture.read("j.xml")
        #expect(junit.contains("a2") && junit.contains("[interrupted] stopped by"), "\(junit)")
    }
}
