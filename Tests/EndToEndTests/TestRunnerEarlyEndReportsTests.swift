import CKTestHelpers
import Foundation
import Testing

/// Every way a run ends keeps its finished results, the summary line and whole report files
/// (atk-data 18, 06, 13).
@Suite("ckrun test: a run that ends early keeps its reports")
struct TestRunnerEarlyEndReportsTests {
    /// A test blocked in io.read on a pipe nobody writes ended the process past --timeout with no
    /// summary and no JUnit file: the ending waited on stdio's lock of stdin, which the read holds.
    @Test func aTestBlockedReadingStdinStillGetsTheReports() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("first", function() end)"#,
            "b_spec.lua": #"it("reads stdin", function() io.read("a") end)"#,
        ])
        // The FIFO held open for writing by the shell itself: a pipe nobody writes to.
        let result = try TestRunnerNamedFilesTests.shell(
            "mkfifo idle && exec 3<>idle && $CK test --sandbox --timeout 2 --junit j.xml a_spec.lua b_spec.lua < idle", in: fixture, timeout: 40)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
        let junit = try fixture.read("j.xml")
        #expect(junit.contains(#"name="first""#) && junit.contains("[timeout]"), "\(junit)")
    }

    /// SIGTERM while a file ran dropped the tests it had finished ("Ran 0 tests").
    @Test func sigtermKeepsTheRunningFilesFinishedTests() throws {
        let fixture = try TestRunnerFixture([
            "suite_spec.lua": """
            for i = 1, 5 do it("fast " .. i, function() end) end
            it("hangs", function() while true do end end)
            """,
        ])
        let result = try TestRunnerNamedFilesTests.shell("timeout 3 $CK test --junit junit.xml suite_spec.lua", in: fixture, timeout: 30)
        #expect(result.status == 124, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("5 passed, 1 failed"), "\(result.stdout)")
        let junit = try fixture.read("junit.xml")
        #expect(junit.components(separatedBy: "<testcase").count - 1 == 5, "\(junit)")
    }

    /// Under --jobs a worker answered once a file, so SIGTERM lost the finished tests of every
    /// file running (atk-data 06: "0 passed, 1 failed"), and of files finished after one still
    /// running: the parent asks the workers for them as the run ends.
    @Test func sigtermUnderJobsKeepsTheRunningFilesFinishedTests() throws {
        // Each hanging test says it started (a file), then loops: SIGTERM comes once both did.
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            for i = 1, 5 do it("fast " .. i, function() end) end
            it("hangs", function() io.open("a_started", "w"):close() while true do end end)
            """,
            // The largest: handed out first (DispatchOrder), done while a_spec still runs.
            "b_spec.lua": "-- " + String(repeating: "padding ", count: 60) + "\n" + #"it("done", function() end)"#,
            "c_spec.lua": """
            for i = 1, 3 do it("quick " .. i, function() end) end
            it("waits", function() io.open("c_started", "w"):close() local t = os.time() + 30 while os.time() < t do end end)
            """,
        ])
        let script = """
            $CK test --jobs 2 --junit junit.xml a_spec.lua b_spec.lua c_spec.lua & pid=$!
            n=0; while { [ ! -f a_started ] || [ ! -f c_started ]; } && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
            kill -TERM $pid; wait $pid
            """
        let result = try TestRunnerNamedFilesTests.shell(script, in: fixture, timeout: 60)
        #expect(result.status == 143, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("9 passed, 1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("[interrupted] stopped by SIGTERM while a_spec.lua, c_spec.lua ran"), "\(result.stdout)")
        let junit = try fixture.read("junit.xml")
        #expect(junit.components(separatedBy: "<testcase").count - 1 == 9, "\(junit)")
        #expect(junit.contains(#"name="fast 5""#) && junit.contains(#"name="quick 3""#) && junit.contains(#"name="done""#), "\(junit)")
    }

    /// A --jobs worker the watchdog's last resort ends while its file runs (a test stuck in C
    /// past --timeout) sends the tests it finished first: they stay, with the [timeout]. Before:
    /// the file's three passing tests were dropped ("1 passed, 1 failed").
    @Test func aWorkerTheWatchdogEndsKeepsItsFilesFinishedTests() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            for i = 1, 3 do it("fast " .. i, function() end) end
            it("stuck in C", function() os.execute("sleep 3") end)
            """,
            "b_spec.lua": #"it("b", function() end)"#,
        ])
        let result = try fixture.test("--jobs", "2", "--timeout", "1")
        #expect(result.lastLine == "4 passed, 1 failed", "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[testFailure] a_spec.lua: [timeout] a_spec.lua:2:"), "\(result.stdout)")
    }

    /// Under `ulimit -f` the --junit write killed ckrun by SIGXFSZ (status 153), leaving its temporary.
    @Test func aFileSizeLimitIsCannotWriteNotADeath() throws {
        let specs = (1...60).map { #"it("test number \#($0) with a long name to make the report bigger", function() end)"# }
        let fixture = try TestRunnerFixture(["a_spec.lua": specs.joined(separator: "\n"), "j.xml": "OLD REPORT\n"])
        let result = try TestRunnerNamedFilesTests.shell("ulimit -f 2 && $CK test --junit j.xml a_spec.lua", in: fixture)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("60 passed, 0 failed"), "\(result.stdout)")
        #expect(result.stderr.contains("[cannotWrite]") && result.stderr.contains("File too large"), "\(result.stderr)")
        #expect(try fixture.read("j.xml") == "OLD REPORT\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path).sorted()
        #expect(left == ["a_spec.lua", "j.xml"], "\(left)")
    }
}
