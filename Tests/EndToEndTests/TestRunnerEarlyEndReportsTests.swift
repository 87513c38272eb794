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

    /// The failure a SIGTERM adds is the run's own: every format names and places it as the
    /// text report does, `(the run)` (atk-busted5 03: gtest's "Running tests from " and
    /// "[  ERROR   ] : ", TAP's "not ok 2 - ", JUnit's `<testsuite name="">`, JSON's "name":"").
    @Test(arguments: ["gtest", "TAP", "junit", "json"])
    func anInterruptedRunIsNamedInEveryFormat(format: String) throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("quick", function() end)"#,
            "b_spec.lua": #"it("spins", function() io.open("b_started", "w"):close() while true do end end)"#,
        ])
        let script = """
            $CK test -o \(format) a_spec.lua b_spec.lua > out.txt 2> err.txt & pid=$!
            n=0; while [ ! -f b_started ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
            sleep 0.2; kill -TERM $pid; wait $pid; echo "status $?" >> err.txt
            """
        _ = try TestRunnerNamedFilesTests.shell(script, in: fixture, timeout: 60)
        let out = try fixture.read("out.txt"), err = try fixture.read("err.txt")
        #expect(err.contains("status 143") && out.contains("[interrupted] stopped by SIGTERM while b_spec.lua ran"), "\(out)\(err)")
        let named: [String] = switch format {
        case "gtest": ["[----------] Running tests from (the run)\n", "[  ERROR   ] (the run)\n", "1 test from 1 test file ran."]
        case "TAP": ["# (the run)\nnot ok 2 - (the run)\n"]
        case "junit": [#"<testsuite name="(the run)" tests="0" failures="0" errors="1""#]
        default: [#""name":"(the run)""#, #""short_src":"(the run)""#]
        }
        for text in named { #expect(out.contains(text), "\(format): \(text)\n\(out)") }
        #expect(!out.contains(#"name="""#) && !out.contains(#""name":"""#) && !out.contains("not ok 2 - \n"), "\(out)")
    }

    /// SIGTERM kept the finished tests in the summary line, JSON and JUnit, which read the list at
    /// the end, but TAP, text and gtest, which write what they are fed, listed none of them
    /// (atk-new2 05: TAP's plan said 1..1 beside "3 passed, 1 failed"): serially the running
    /// file's finished tests, under --jobs also a file finished while an earlier one still ran.
    @Test(arguments: ["TAP", "text", "gtest"], ["", "--jobs 2"])
    func sigtermKeepsTheFinishedTestsInEveryFormat(format: String, jobs: String) throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            for i = 1, 3 do it("a" .. i, function() end) end
            it("hangs", function() io.open("a_started", "w"):close() while true do end end)
            """,
            "b_spec.lua": """
            for i = 1, 2 do it("b" .. i, function() end) end
            it("b3", function() io.open("b_done", "w"):close() end)
            """,
        ])
        // Serially b_spec.lua never runs (a_spec.lua hangs first); under --jobs it is waited for.
        let wanted = jobs.isEmpty ? "[ ! -f a_started ]" : "{ [ ! -f a_started ] || [ ! -f b_done ]; }"
        let script = """
            $CK test -o \(format) \(jobs) a_spec.lua b_spec.lua > out.txt 2> err.txt & pid=$!
            n=0; while \(wanted) && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
            sleep 0.2; kill -TERM $pid; wait $pid; echo "status $?" >> err.txt
            """
        _ = try TestRunnerNamedFilesTests.shell(script, in: fixture, timeout: 60)
        let out = try fixture.read("out.txt"), err = try fixture.read("err.txt")
        let passed = jobs.isEmpty ? ["a1", "a2", "a3"] : ["a1", "a2", "a3", "b1", "b2", "b3"]
        #expect(err.contains("status 143"), "\(out)\(err)")
        #expect((out + err).contains("\(passed.count) passed, 1 failed"), "\(out)\(err)")
        let lines = out.split(separator: "\n").map(String.init)
        for name in passed {
            let listed = switch format {
            case "TAP": lines.contains { $0.hasPrefix("ok ") && $0.hasSuffix(" - \(name)") }
            case "gtest": lines.contains { $0.hasPrefix("[       OK ]") && $0.contains(": \(name) (") }
            default: lines.contains { $0.hasPrefix("ok ") && $0.hasSuffix(": \(name)") }
            }
            #expect(listed, "\(format) lists \(name):\n\(out)")
        }
        if format == "TAP" {
            #expect(lines.last == "1..\(passed.count + 1)", "\(out)")
            #expect(lines.contains("not ok \(passed.count + 1) - (the run)") && !out.contains("at: \"\""), "\(out)")
        }
    }

    /// The serial run's watchdog end (a test stuck in C past --timeout) is the same ending: TAP
    /// lists the file's finished tests before the [timeout].
    @Test func theWatchdogsEndKeepsTheFinishedTestsInTAP() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            for i = 1, 3 do it("a" .. i, function() end) end
            it("stuck in C", function() os.execute("sleep 4") end)
            """,
        ])
        let result = try fixture.test("-o", "TAP", "--timeout", "1")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        for n in 1...3 { #expect(result.stdout.contains("ok \(n) - a\(n)\n"), "\(result.stdout)") }
        #expect(result.stdout.contains("not ok 4 - a_spec.lua") && result.stdout.hasSuffix("1..4\n"), "\(result.stdout)")
        #expect(result.stderr.contains("3 passed, 1 failed"), "\(result.stderr)")
    }

    /// The watchdog's end in a finalizer (no hook runs there) names the stuck file once: its
    /// finished tests and the [timeout] are one file's (atk-new3 03: TAP's header and gtest's
    /// section twice, "from 3 test files" when 2 ran).
    @Test func theWatchdogsEndInAFinalizerNamesTheFileOnce() throws {
        let fixture = try TestRunnerFixture([
            "f1_spec.lua": #"it("t1", function() end)"#,
            "f2_spec.lua": """
            it("t2", function() end)
            it("gc", function() setmetatable({}, {__gc = function() while true do end end}); collectgarbage() end)
            """,
            "f3_spec.lua": #"it("t3", function() end)"#,
        ])
        let tap = try fixture.test("-o", "TAP", "--timeout", "1", "f1_spec.lua", "f2_spec.lua", "f3_spec.lua")
        #expect(tap.status == 1, "\(tap.stdout)\(tap.stderr)")
        #expect(tap.stdout.components(separatedBy: "# f2_spec.lua\n").count == 2, "\(tap.stdout)")
        #expect(tap.stdout.contains("not ok 3 - f2_spec.lua") && tap.stdout.hasSuffix("1..3\n"), "\(tap.stdout)")
        let gtest = try fixture.test("-o", "gtest", "--timeout", "1", "f1_spec.lua", "f2_spec.lua", "f3_spec.lua")
        #expect(gtest.stdout.contains("from 2 test files ran"), "\(gtest.stdout)")
        let text = try fixture.test("-o", "plainTerminal", "--timeout", "1", "f1_spec.lua", "f2_spec.lua", "f3_spec.lua")
        #expect(text.stdout.contains("from 2 files"), "\(text.stdout)")
    }

    /// --jobs hands the largest file out first and asks each worker for its next file ahead: a
    /// file queued behind one that hangs never starts, while later files finish elsewhere and are
    /// reported. SIGTERM's report names it as not run (atk-new3 01: it vanished from every
    /// report, as if the run had never had it).
    @Test func sigtermUnderJobsNamesTheFilesQueuedBehindAHangingOne() throws {
        var files: [String: String] = [:]
        for i in [1, 2, 3, 4, 6, 7, 8] { files["f0\(i)_spec.lua"] = #"it("t\#(i)", function() end)"# }
        // The largest (one more test): handed out first; f02 is asked of the same worker next.
        files["f05_spec.lua"] = """
            it("t5", function() end)
            it("hangs", function() io.open("started", "w"):close() while true do end end)
            it("t5 c", function() end)
            """
        let fixture = try TestRunnerFixture(files)
        let script = """
            $CK test --jobs 2 -o TAP . > out.txt 2>&1 & pid=$!
            n=0; while [ ! -f started ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
            sleep 1; kill -TERM $pid; wait $pid; echo "status $?"; cat out.txt
            """
        let result = try TestRunnerNamedFilesTests.shell(script, in: fixture, timeout: 60)
        #expect(result.stdout.contains("status 143"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("# f08_spec.lua"), "\(result.stdout)")
        let notRun = result.stdout.contains("f02_spec.lua did not run (queued behind f05_spec.lua)")
        #expect(result.stdout.contains("# f02_spec.lua") || notRun, "\(result.stdout)")
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
