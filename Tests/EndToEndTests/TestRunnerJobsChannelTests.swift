import CKTestHelpers
import Foundation
import Testing

/// `--jobs` workers answer on a descriptor of their own that no program a test starts holds,
/// in a process group of their own (WorkerProtocol.swift, WorkerProcess.swift).
@Suite("ckrun test --jobs: what a test's processes do stays with its worker")
struct TestRunnerJobsChannelTests {
    /// A process a test leaves writing (`yes &`) does not hold the run. Before: every result
    /// printed, then the runner waited forever for the end of a pipe `yes` held.
    @Test func aProcessLeftWritingDoesNotHoldTheRun() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("leaves yes running", function() os.execute("yes 2>/dev/null &") end)"#,
            "b_spec.lua": #"it("passes", function() end)"#,
        ])
        let result = try Ckrun.run(["test", "--jobs", "2", "."], directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 0 && result.lastLine == "2 passed, 0 failed", "\(result.stdout.suffix(500))\(result.stderr)")
    }

    /// What a test's child writes is kept as a test's `print` is, up to 1,000,000 bytes.
    /// Before: all 30 MB were kept (held several times over in the runner's memory) and printed.
    @Test func aChildsOutputIsCut() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("floods", function() os.execute("head -c 30000000 /dev/zero | tr '\\0' x") end)"#,
            "b_spec.lua": #"it("passes", function() end)"#,
        ])
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "2 passed, 0 failed", "\(result.stdout.suffix(500))\(result.stderr)")
        #expect(result.stdout.contains("[cut: output past 1000000 bytes not kept]"))
        #expect(result.stdout.utf8.count < 2_000_000, "\(result.stdout.utf8.count) bytes")
    }

    /// Under a machine format a child's standard output goes to standard error with --jobs 2
    /// as with --jobs 1 (atk-new 11: lost under -o json, inside the TAP and JUnit documents).
    @Test(arguments: ["json", "tap", "junit"])
    func aChildsOutputUnderAMachineFormatGoesToStandardError(format: String) throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("x", function() os.execute("echo CHILD-OUT") end)"#,
            "b_spec.lua": #"it("y", function() end)"#,
        ])
        for jobs in ["1", "2"] {
            let result = try Ckrun.run(["test", "--jobs", jobs, "-o", format, "."], directory: fixture.directory.url, timeout: 30)
            #expect(!result.stdout.contains("CHILD-OUT") && result.stderr.contains("CHILD-OUT"), "\(jobs): \(result.stdout)\(result.stderr)")
        }
    }

    /// A test that signals its process group (`kill 0`) ends its worker only: its file fails
    /// with the signal named and the run goes on. Before: the runner was killed too (status
    /// 143, no report). Started as from a shell, in a group of its own (setsid), with no signal
    /// blocked (a process started from a Dispatch thread has SIGTERM blocked).
    @Test func signallingTheProcessGroupEndsOnlyTheWorker() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("passes", function() end)"#,
            "b_spec.lua": #"it("signals its group", function() os.execute("kill -TERM 0") end)"#,
            "c_spec.lua": #"it("passes", function() end)"#,
        ])
        let script = #"cd "$1" && { "$0" test --jobs 2 . > out 2>&1; echo $? > status; }"#
        _ = try Ckrun.runProcess(URL(fileURLWithPath: "/usr/bin/setsid"),
                                 ["/bin/sh", "-c", script, Ckrun.executableURL.path, fixture.directory.url.path], captureOutput: false)
        let out = try fixture.read("out")
        #expect(out.hasSuffix("2 passed, 1 failed\n"), "\(out)")
        #expect(out.contains("b_spec.lua: its worker process was killed by signal 15"), "\(out)")
        #expect((try? fixture.read("status")) == "1\n")
    }

    /// A worker the watchdog ends (a finalizer looping as the state closes) fails its file with
    /// the cause, after the results its tests had. Before: only "its worker process ended with
    /// status 1", the passing test dropped.
    @Test func aWorkerEndedByTheWatchdogNamesTheCause() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("gc loop", function() setmetatable({}, {__gc = function() while true do end end}) end)"#,
            "b_spec.lua": #"it("passes", function() end)"#,
        ])
        let result = try fixture.test("--jobs", "2", "--timeout", "1")
        // Where it struck, as a serial run names it; standard error says the run goes on (atk-new
        // 10: no line, and "the process ends").
        #expect(result.stdout.contains("[testFailure] a_spec.lua: [timeout] a_spec.lua:1: a C function, a finalizer (__gc) or a debug hook ran past the time limit"),
                "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("its --jobs worker ends, its file fails and the run goes on") && !result.stderr.contains("the process ends"), "\(result.stderr)")
        #expect(result.outcomeLines.contains("ok    a_spec.lua:1: gc loop"), "\(result.stdout)")
        #expect(result.lastLine == "2 passed, 1 failed", "\(result.stdout)")
    }

    /// Too few file descriptors for the workers asked for (`ulimit -n 12`): fewer workers, or
    /// none, with a note. Before: four of five files failed ("could not start a worker: Too many
    /// open files").
    @Test func tooFewDescriptorsMeanFewerWorkers() throws {
        let fixture = try TestRunnerFixture(Dictionary(uniqueKeysWithValues: (1...5).map { ("f\($0)_spec.lua", #"it("passes", function() end)"#) }))
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #"ulimit -n 12 && exec "$0" test --jobs 3 ."#, Ckrun.executableURL.path],
                                          directory: fixture.directory.url, timeout: 30)
        #expect(result.stdout.hasSuffix("5 passed, 0 failed\n"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("ckrun: --jobs 3: "), "\(result.stderr)")
    }
}
