import CKTestHelpers
import Foundation
import Testing

/// Issue 24, class 8: every path that loads a chunk hands Lua the bytes as read. A Latin-1
/// literal (`"\xE9"`, one byte; `#s` is 1 in lua5.4) became U+FFFD's three bytes wherever a
/// file or a line was decoded as UTF-8 first.
@Suite("Source bytes reach Lua as read")
struct SourceBytesTests {
    /// `"<0xE9>"`: a Lua string literal of one byte that is not UTF-8.
    private static func latin1(_ before: String, _ after: String) -> Data {
        Data(before.utf8) + Data([0x22, 0xE9, 0x22]) + Data(after.utf8)
    }

    private static func project() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let files: [String: Data] = [
            "app.lua": latin1("io.stderr:write('len ', #", ", '\\n')\n" + """
                return ck.component("L1", {view = {class = "UILabel", attributes = {text = "x"}}})
                """),
            "spec/latin1_spec.lua": latin1("describe('s', function() it('is one byte', function() assert.are.equal(1, #", ") end) end)\n"),
            "tree.lua": latin1("local n = #", "\n" + """
                return ck.component("T1", {view = function() return {class = "UILabel", attributes = {text = tostring(n)}} end})
                """),
            "repl.txt": latin1("print('repl', #", ")\n"),
            "reload.txt": Data(".reload\n".utf8),
        ]
        for (name, bytes) in files {
            let url = dir.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }
        return dir
    }

    /// ckrun with standard input from a file of the project (bytes, not a Swift string).
    private static func run(_ arguments: String, in dir: TemporaryDirectory) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(Ckrun.executableURL.path)' \(arguments)"],
                             directory: dir.url, timeout: 30)
    }

    @Test func appFileAndReload() throws {
        let dir = try Self.project()
        let r = try Self.run("app.lua < reload.txt", in: dir)
        #expect(r.stderr.components(separatedBy: "len 1\n").count == 3, "\(r.stderr)")
        #expect(!r.stderr.contains("len 3"))
    }

    @Test func treeCommand() throws {
        let dir = try Self.project()
        let r = try Self.run("tree tree.lua", in: dir)
        #expect(r.stdout.contains("text=\"1\""), "\(r.stdout) \(r.stderr)")
    }

    @Test func pipedRepl() throws {
        let dir = try Self.project()
        #expect(try Self.run("repl < repl.txt", in: dir).stdout.contains("repl\t1"))
        #expect(try Self.run("< repl.txt", in: dir).stdout.contains("repl\t1"))
    }

    @Test func testFile() throws {
        let dir = try Self.project()
        let r = try Self.run("test spec", in: dir)
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
    }
}
