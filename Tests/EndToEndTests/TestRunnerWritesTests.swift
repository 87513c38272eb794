import CKTestHelpers
import Foundation
import Testing

/// Files `ckrun test` writes for a run replace what is at their path: a symlink an untrusted
/// checkout planted there is replaced, and the file it pointed to keeps its bytes (the outsider's
/// attack after issue 24: `.busted`'s coverage under --sandbox emptied a file through lcov.info).
@Suite("ckrun test: written files replace, never write through a link")
struct TestRunnerWritesTests {
    static let precious = "precious user data\n"

    func plant(_ fixture: TestRunnerFixture, _ links: [String]) throws -> URL {
        let victim = fixture.directory.url.appendingPathComponent("victim.txt")
        try Self.precious.write(to: victim, atomically: false, encoding: .utf8)
        for link in links {
            let url = fixture.directory.url.appendingPathComponent(link)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: victim.path)
        }
        return victim
    }

    @Test func coverageAndJUnitUnderTheSandboxLeaveALinksTargetAlone() throws {
        let fixture = try TestRunnerFixture([
            ".busted": "return { default = { coverage = true } }",
            "src/m.lua": "return { f = function() return 1 end }\n",
            "x_spec.lua": "it('x', function() package.path = 'src/?.lua;' .. package.path assert.are.equal(1, require('m').f()) end)",
        ])
        let victim = try plant(fixture, ["luacov.stats.out", "lcov.info", "report.xml"])
        let result = try fixture.test("--sandbox", "--junit", "report.xml")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == Self.precious)
        #expect(try fixture.read("lcov.info").contains("SF:src/m.lua"))
        #expect(try fixture.read("report.xml").contains("<testsuite"))
    }

    @Test func updatedSnapshotsLeaveALinksTargetAlone() throws {
        let fixture = try TestRunnerFixture([
            "s_spec.lua": """
            it('s', function()
              local h = ck.host(function() return ck.Text{text = 'hi'} end)
              assert.tree_snapshot(h)
            end)
            """,
        ])
        let victim = try plant(fixture, ["__snapshots__/s_spec.snap"])
        let result = try fixture.test("--update-snapshots")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == Self.precious)
        #expect(try fixture.read("__snapshots__/s_spec.snap").contains("hi"))
    }
}
