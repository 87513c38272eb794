import CKTestHelpers
import Foundation
import Testing

/// Every line ckrun writes as its own begins with argv[0], as lua.c's errors do (atk-lua 09: the
/// hard timeout, written from C, said "ckrun:" while the same run's other errors named argv[0]).
@Suite("ckrun's own lines name argv[0]")
struct ProgramNameTests {
    /// ckrun reached through a link named `mylua`.
    private static func linked(in dir: TemporaryDirectory) throws -> URL {
        let link = dir.url.appendingPathComponent("mylua")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Ckrun.executableURL)
        return link
    }

    @Test func theHardTimeoutNamesArgv0() throws {
        let dir = try TemporaryDirectory()
        let link = try Self.linked(in: dir)
        let r = try Ckrun.runProcess(link, ["--timeout", "1", "-e", "setmetatable({}, {__gc = function() while true do end end})"], timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(link.path): [timeout] (command line):1: a C function, a finalizer (__gc)"), "stderr:\n\(r.stderr)")
    }

    @Test func aUsageErrorAndAnUnreadableFileNameArgv0() throws {
        let dir = try TemporaryDirectory()
        let link = try Self.linked(in: dir)
        let usage = try Ckrun.runProcess(link, ["--bogus"], timeout: 20)
        #expect(usage.stderr.hasPrefix("\(link.path): [usage] unknown option '--bogus'"), "stderr:\n\(usage.stderr)")
        let tree = try Ckrun.runProcess(link, ["tree", dir.url.appendingPathComponent("none.lua").path, "--format", "text"], timeout: 20)
        #expect(tree.stderr.hasPrefix("\(link.path): [cannotRead]"), "stderr:\n\(tree.stderr)")
    }
}
