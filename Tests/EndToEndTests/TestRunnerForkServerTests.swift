import CKTestHelpers
import Foundation
import Testing

/// `--jobs` workers are forked ready from the runner (its options parsed, one state prepared)
/// and run their files in their own process, each in a fresh state (WorkerLoop.swift).
@Suite("ckrun test --jobs: workers forked ready, each file in a fresh state")
struct TestRunnerForkServerTests {
    /// Each file's test appends its process id to `pids`.
    static let recordsItsProcess = #"""
    it("records its process", function()
      local f = assert(io.open("pids", "a"))
      f:write(io.open("/proc/self/stat"):read("n"), "\n")
      f:close()
    end)
    """#

    /// A worker runs its files itself, no process forked per file (a fork per file cost more
    /// than the state it saved). Before: six files, six process ids.
    @Test func aWorkerRunsItsFilesInItsOwnProcess() throws {
        let names = (1...6).map { "f\($0)_spec.lua" }
        let fixture = try TestRunnerFixture(Dictionary(uniqueKeysWithValues: names.map { ($0, Self.recordsItsProcess) }))
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "6 passed, 0 failed", "\(result.stdout)\(result.stderr)")
        let pids = try fixture.read("pids").split(separator: "\n")
        #expect(pids.count == 6 && Set(pids).count <= 2, "\(pids)")
    }

    /// A process-wide change a file makes (the C locale) does not reach the files after it.
    /// Before: a worker's second file found its first file's locale.
    @Test func aFilesProcessWideChangesStayInItsProcess() throws {
        let spec = #"""
        it("starts in the C locale and leaves another", function()
          assert.are.equal("C", os.setlocale(nil, "numeric"))
          assert.is_truthy(os.setlocale("C.utf8", "numeric") or os.setlocale("POSIX", "numeric"))
          os.setlocale("C.utf8", "numeric")
        end)
        """#
        let fixture = try TestRunnerFixture(Dictionary(uniqueKeysWithValues: (1...6).map { ("l\($0)_spec.lua", spec) }))
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "6 passed, 0 failed", "\(result.stdout)\(result.stderr)")
    }

    /// The files after one that failed to load, broke luassert or killed its process start
    /// from a state as it was prepared (the compiled bytecode is not changed by a test).
    @Test func filesAfterAFailureStartFromTheSamePreparedState() throws {
        var files = [
            "a1_spec.lua": #"it("broken" function() end)"#,
            "a2_spec.lua": #"it("breaks luassert", function() assert.are.equal = error; string.rep = nil end)"#,
            "a3_spec.lua": #"it("dies", function() os.execute("kill -9 $PPID") end)"#,
        ]
        for n in 1...5 { files["b\(n)_spec.lua"] = #"it("ok", function() assert.are.equal(2, 1 + 1); assert.are.equal("aa", string.rep("a", 2)) end)"# }
        let fixture = try TestRunnerFixture(files)
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "6 passed, 2 failed", "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("a1_spec.lua:1: ')' expected near 'function'"), "\(result.stdout)")
        #expect(result.stdout.contains("a3_spec.lua: its worker process was killed by signal 9"), "\(result.stdout)")
    }

    /// A file's process ends with its worker: a run stopped by --fail-fast leaves no file
    /// running (PR_SET_PDEATHSIG; without it the looping file outlived the run).
    @Test func aFilesProcessEndsWithItsWorker() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("fails", function() os.execute("sleep 1"); error("first") end)"#,
            "b_spec.lua": #"""
            it("loops", function()
              local f = assert(io.open("pid", "w"))
              f:write(io.open("/proc/self/stat"):read("n"))
              f:close()
              while true do end
            end)
            """#,
        ])
        let result = try Ckrun.run(["test", "--jobs", "2", "--fail-fast", "."], directory: fixture.directory.url, timeout: 10)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let pid = try #require(Int32(fixture.read("pid")))
        let gone = Self.endsWithin5Seconds(pid)
        #expect(gone, "the file's process \(pid) outlived the run")
    }

    /// A program a test starts holds none of the runner's pipes. Before: it held the worker's
    /// request pipe on fd 3 (`head -c 200 <&3 &` ate the next file's request: the run hung).
    @Test func programsATestStartsHoldNoRunnerPipe() throws {
        let spec = { (name: String) in #"it("lists", function() os.execute("exec ls -l /proc/self/fd/ > fds-\#(name)") end)"# }
        let fixture = try TestRunnerFixture(["a_spec.lua": spec("a"), "b_spec.lua": spec("b"), "c_spec.lua": spec("c")])
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "3 passed, 0 failed", "\(result.stdout)\(result.stderr)")
        for name in ["a", "b", "c"] {
            let held = try fixture.read("fds-\(name)").split(separator: "\n")
                .filter { $0.contains("pipe:") && !$0.contains(" 1 -> ") && !$0.contains(" 2 -> ") }
            #expect(held.isEmpty, "\(name): \(held)")
        }
    }

    /// Workers and their files' processes end with the parent: SIGKILL to the parent alone
    /// leaves nothing running (SIGKILL: a shell spawned from a Dispatch thread has SIGTERM
    /// blocked). Before: the looping file ran on, reparented to init.
    @Test func aTerminatedParentLeavesNoProcessBehind() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("ends the run", function() os.execute("sleep 1; kill -KILL $(cat parent)") end)"#,
            "b_spec.lua": #"""
            it("loops", function()
              local f = assert(io.open("pid", "w"))
              f:write(io.open("/proc/self/stat"):read("n"))
              f:close()
              while true do end
            end)
            """#,
        ])
        // Output to a file: a worker left running would hold a pipe open.
        let script = "\"$0\" test --jobs 2 . < /dev/null > out 2>&1 & echo $! > parent; wait"
        _ = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                 directory: fixture.directory.url, timeout: 10)
        let pid = try #require(Int32(fixture.read("pid")))
        let gone = Self.endsWithin5Seconds(pid)
        #expect(gone, "the file's process \(pid) outlived its parent")
    }

    /// A result line is taken only for the file its worker is running. Before: a test that read
    /// its worker's token from /proc/self/mem and wrote one extra result shifted every later
    /// answer on that worker by one, and c_spec's failure was lost (3 passed, 0 failed).
    @Test func aForgedExtraResultAnswersNoOtherFile() throws {
        let fixture = try TestRunnerFixture([
            "tok.lua": #"""
            return function()
              local g = "%x%x?%x?%x?%x?%x?%x?%x?"
              local pattern = "%f[%x]" .. g .. "%-" .. g .. "%-" .. g .. "%-" .. g .. "[%z\n]"
              local mem = assert(io.open("/proc/self/mem", "rb"))
              for line in io.lines("/proc/self/maps") do
                local s, e, perm, rest = line:match("^(%x+)-(%x+) (%S+) %S+ %S+ %S+%s*(.*)$")
                if perm and perm:sub(1, 2) == "rw" and (rest == "" or rest == "[heap]") then
                  local size = tonumber(e, 16) - tonumber(s, 16)
                  if size < 64 * 1024 * 1024 and mem:seek("set", tonumber(s, 16)) then
                    local found = (mem:read(size) or ""):match(pattern)
                    if found then mem:close(); return found:sub(1, -2) end
                  end
                end
              end
            end
            """#,
            "a_spec.lua": #"""
            it("forges", function()
              local token = assert(dofile("tok.lua")())
              local out = assert(io.open("/proc/self/fd/1", "w"))
              out:write("\n\30ckrun-test-result " .. token .. " a_spec.lua\31\0310.01\31\0290\31\30a extra line\0311\31passed\31\0311e-6\31\0290\31\0290\31\0290\31\0290\31\30\n")
              out:close()
            end)
            """#,
            "b_spec.lua": #"it("waits", function() os.execute("sleep 1") end)"#,
            "c_spec.lua": #"it("fails", function() error("c fails") end)"#,
        ])
        let result = try fixture.test("--jobs", "2", ".")
        #expect(result.lastLine.hasSuffix(" 1 failed"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("c fails"), "\(result.stdout)")
    }

    /// A file whose state's close does not end (a finalizer looping under --timeout) is the
    /// file that fails. Before: it reported ok and the worker's next file, c_spec, was blamed
    /// ("its worker process ended with status 1 before reporting results").
    @Test func aCloseThatDoesNotEndFailsItsOwnFile() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("gc loop", function() setmetatable({}, {__gc = function() while true do end end}) end)"#,
            "b_spec.lua": #"it("busy", function() local t = os.clock() + 0.3; while os.clock() < t do end end)"#,
            "c_spec.lua": #"it("passes", function() end)"#,
        ])
        let result = try fixture.test("--sandbox", "--jobs", "2", "--timeout", "3")
        #expect(result.stdout.contains("a_spec.lua: [timeout]"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("c_spec.lua: ["), "\(result.stdout)")
    }

    /// A worker is asked for its next file while it runs one: when it dies in a file, the file
    /// it was asked for after that one runs on a new worker, once. The dying file is the
    /// largest (handed out first), so its worker has one asked for behind it.
    @Test func theFileAskedBehindOneThatKillsItsWorkerRunsOnANewWorker() throws {
        var files = ["a_spec.lua": "-- " + String(repeating: "x", count: 400) + "\n" + #"it("dies", function() os.execute("kill -9 $PPID") end)"#]
        for n in 1...8 { files["b\(n)_spec.lua"] = #"it("counts", function() local f = assert(io.open("runs", "a")); f:write("b\n"); f:close() end)"# }
        let fixture = try TestRunnerFixture(files)
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "8 passed, 1 failed", "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("a_spec.lua: its worker process was killed by signal 9"), "\(result.stdout)")
        #expect(try fixture.read("runs").split(separator: "\n").count == 8, "each b file runs once")
    }

    /// A worker a file's test stopped after that file answered does not fail the next file:
    /// it runs again on a new worker. Before: "c_spec.lua: its worker process was stopped".
    @Test func aWorkerStoppedAfterAnsweringDoesNotFailTheNextFile() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("stops its worker", function() os.execute("(sleep 0.5; kill -STOP $PPID) &") end)"#,
            "b_spec.lua": #"it("waits", function() os.execute("sleep 1") end)"#,
            "c_spec.lua": #"it("waits", function() os.execute("sleep 1") end)"#,
        ])
        let result = try fixture.test("--jobs", "2", "--timeout", "5")
        #expect(!result.stdout.contains("c_spec.lua: its worker process"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("ok    c_spec.lua"), "\(result.stdout)")
    }

    /// Nor does a worker a file's leftover process killed after that file answered. Before
    /// (workers running their files in their own process, only a stopped worker's file run
    /// again): "c_spec.lua: its worker process was killed by signal 9".
    @Test func aWorkerKilledAfterAnsweringDoesNotFailTheNextFile() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("kills its worker later", function() os.execute("(sleep 0.5; kill -KILL $PPID) &") end)"#,
            "b_spec.lua": #"it("waits", function() os.execute("sleep 1") end)"#,
            "c_spec.lua": #"it("waits", function() os.execute("sleep 1") end)"#,
        ])
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "3 passed, 0 failed", "\(result.stdout)\(result.stderr)")
    }

    /// A file that kills its own worker still fails, after its one run again.
    @Test func aFileThatKillsItsWorkerFails() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("waits", function() os.execute("sleep 0.3") end)"#,
            "b_spec.lua": #"it("waits", function() end)"#,
            "c_spec.lua": #"it("kills its worker", function() os.execute("kill -KILL $PPID") end)"#,
        ])
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "2 passed, 1 failed", "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("c_spec.lua: its worker process was killed by signal 9"), "\(result.stdout)")
    }

    /// Files are handed out largest first, reported in order. Before: z_spec, the largest and
    /// last in order, started only once a worker had finished a_spec or b_spec.
    @Test func theLargestFileStartsFirst() throws {
        let spec = { (name: String, padding: Int) in
            "io.open(\"started\", \"a\"):write(\"\(name)\\n\"):close()\n-- \(String(repeating: "x", count: padding))\n"
                + #"it("waits", function() os.execute("sleep 0.4") end)"#
        }
        let fixture = try TestRunnerFixture(["a_spec.lua": spec("a", 0), "b_spec.lua": spec("b", 0), "z_spec.lua": spec("z", 4000)])
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "3 passed, 0 failed", "\(result.stdout)\(result.stderr)")
        let started = try fixture.read("started")
        #expect(started.split(separator: "\n").last == "b", "\(started)")
        let reported = result.stdout.split(separator: "\n").filter { $0.hasPrefix("ok") }
            .compactMap { line in line.firstIndex(of: "_").map { line[line.index(before: $0)] } }
        #expect(reported == ["a", "b", "z"], "\(result.stdout)")
    }

    /// Whether process `pid` ends (or is a zombie) within 5 s; one that does not is killed, so a
    /// failing test leaves nothing running.
    static func endsWithin5Seconds(_ pid: Int32) -> Bool {
        for _ in 0..<50 {
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            if kill(pid, 0) != 0 || (stat?.contains(") Z") ?? true) { return true }
            usleep(100_000)
        }
        kill(pid, SIGKILL)
        return false
    }
}
