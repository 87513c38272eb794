import CKTestHelpers
import Foundation
import Testing

/// `--jobs` workers are fork servers: each file runs in a process forked from a worker's
/// prepared state (ForkServer.swift).
@Suite("ckrun test --jobs: each file in a process forked from a prepared state")
struct TestRunnerForkServerTests {
    /// Each file's test appends its process id to `pids`.
    static let recordsItsProcess = #"""
    it("records its process", function()
      local f = assert(io.open("pids", "a"))
      f:write(io.open("/proc/self/stat"):read("n"), "\n")
      f:close()
    end)
    """#

    /// Before: two workers ran the six files, two process ids; the help promised each file its own process.
    @Test func eachFileRunsInItsOwnProcess() throws {
        let names = (1...6).map { "f\($0)_spec.lua" }
        let fixture = try TestRunnerFixture(Dictionary(uniqueKeysWithValues: names.map { ($0, Self.recordsItsProcess) }))
        let result = try fixture.test("--jobs", "2")
        #expect(result.lastLine == "6 passed, 0 failed", "\(result.stdout)\(result.stderr)")
        let pids = try fixture.read("pids").split(separator: "\n")
        #expect(pids.count == 6 && Set(pids).count == 6, "\(pids)")
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

    /// The prepared state stays as it was for the files after one that failed to load, broke
    /// luassert or killed its process.
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
        #expect(result.stdout.contains("a1_spec.lua failed to load"), "\(result.stdout)")
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
        let result = try Ckrun.run(["test", "--jobs", "2", "--fail-fast"], directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let pid = try #require(Int32(fixture.read("pid")))
        var gone = false
        for _ in 0..<50 where !gone {
            gone = kill(pid, 0) != 0 || ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z") ?? true)
            if !gone { usleep(100_000) }
        }
        if !gone { kill(pid, SIGKILL) }
        #expect(gone, "the file's process \(pid) outlived the run")
    }
}
