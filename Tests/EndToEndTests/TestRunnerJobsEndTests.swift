import CKTestHelpers
import Foundation
import Testing

/// How a `--jobs` run ends: a worker with no file left is told so as soon as it answered, not
/// after its slot reported the result (ParallelRunner.serve).
@Suite("ckrun test --jobs: a worker with no file left ends while its result is reported")
struct TestRunnerJobsEndTests {
    /// The report of `a_spec.lua` (300 KB it wrote, shown under --verbose) waits on a reader of
    /// standard output that reads nothing yet; its worker, with no file left, has ended
    /// meanwhile (a zombie until the runner waits for it). Before: the worker waited for its
    /// next request until the report was written, so it still ran when the reader gave up.
    @Test func aWorkerWithNoFileLeftEndsWhileItsResultIsReported() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a_spec.lua", #"""
        it("prints a lot", function()
          local f = assert(io.open("a.pid", "w"))
          f:write(io.open("/proc/self/stat"):read("n"))
          f:close()
          io.write(string.rep("x", 300000), "\n")
        end)
        """#)
        try directory.write("b_spec.lua", #"it("passes", function() end)"#)
        let process = Process(), output = Pipe()
        process.executableURL = Ckrun.executableURL
        process.arguments = ["test", "--jobs", "2", "--verbose", "a_spec.lua", "b_spec.lua"]
        process.currentDirectoryURL = directory.url
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pidFile = directory.url.appendingPathComponent("a.pid")
        var ended = false
        for _ in 0..<500 {   // up to 10 s
            if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = Int(text) {
                let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                let state = stat.split(separator: ")").last?.split(separator: " ").first
                if stat.isEmpty || state == "Z" { ended = true; break }
            }
            usleep(20_000)
        }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(ended, "a_spec.lua's worker still ran while its result waited to be written")
        #expect(printed.hasSuffix("2 passed, 0 failed\n"), "\(printed.suffix(300))")
        #expect(process.terminationStatus == 0)
    }
}
