import CKTestHelpers
import Foundation
import Testing

/// Output that cannot be written never traps ckrun: a reader that went away (`| head -1`) ends
/// it quietly with SIGPIPE's status (141, as a filter), a closed (`>&-`) or full (`>/dev/full`)
/// standard output gives `[cannotWrite]` on standard error and a non-zero status.
@Suite("Output that cannot be written")
struct OutputFailureTests {
    /// 3 files of 2,000 tests: the report is far larger than a pipe holds.
    private static func project() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        for name in ["a", "b", "c"] {
            let spec = "describe('\(name)', function() for i = 1, 2000 do it('test ' .. i, function() end) end end)\n"
            try spec.write(to: dir.url.appendingPathComponent("\(name)_spec.lua"), atomically: true, encoding: .utf8)
        }
        let script = "for i = 1, 200000 do print(i) end\n"
        try script.write(to: dir.url.appendingPathComponent("many.lua"), atomically: true, encoding: .utf8)
        let app = "return ck.component('Big', {render = function() local c = {} for i = 1, 3000 do c[i] = ck.Text{text = 'line ' .. i} end return ck.Stack{children = c} end})\n"
        try app.write(to: dir.url.appendingPathComponent("app.lua"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Runs `command` (ckrun's arguments and redirections) in bash; `status` is ckrun's own.
    private static func run(_ command: String, in dir: TemporaryDirectory) throws -> (status: Int32, stderr: String) {
        let line = "'\(Ckrun.executableURL.path)' \(command); echo \"status ${PIPESTATUS[0]}\" >&2"
        let r = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", line], directory: dir.url, timeout: 60)
        let status = r.stderr.components(separatedBy: "status ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? -1
        return (status, r.stderr)
    }

    @Test(arguments: ["test --jobs 1 . | head -1", "test --jobs 2 . | head -1", "many.lua | head -1",
                      "tree app.lua | head -1", "repl < many.lua | head -1"])
    func readerGoneEndsAsAFilter(command: String) throws {
        let r = try Self.run(command, in: try Self.project())
        #expect(r.status == 141, "\(command): \(r.stderr.suffix(400))")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("[cannotWrite]"), "\(command): \(r.stderr.suffix(400))")
    }

    @Test(arguments: ["test --jobs 1 . >&-", "test --jobs 2 . >&-", "test --jobs 1 . >/dev/full",
                      "test --jobs 2 . >/dev/full", "many.lua >/dev/full", "many.lua >&-", "tree app.lua >/dev/full",
                      "repl < many.lua >/dev/full", "test --jobs 2 -o json . >/dev/full"])
    func unwritableOutputIsAnErrorNotATrap(command: String) throws {
        let r = try Self.run(command, in: try Self.project())
        #expect(r.status == 1, "\(command): \(r.stderr.suffix(400))")
        #expect(r.stderr.contains("[cannotWrite] cannot write standard output"), "\(command): \(r.stderr.suffix(400))")
        #expect(!r.stderr.contains("Fatal error"), "\(command)")
    }
}
