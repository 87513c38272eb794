import CKTestHelpers
import Foundation
import Testing

/// Finding the test files is bounded (the outsider's break 11: a checkout's `.busted` naming
/// ROOT = {"/proc/self"} held `ckrun test --sandbox` for minutes, printing nothing).
@Suite("ckrun test: finding the test files is bounded")
struct TestDiscoveryBoundsTests {
    @Test func procIsNotSearched() throws {
        let fixture = try TestRunnerFixture([
            "spec/a_spec.lua": #"describe("a", function() it("b", function() end) end)"#,
            ".busted": #"return { default = { ROOT = {"/proc/self"} } }"#,
        ])
        let start = Date()
        let r = try Ckrun.run(["test", "--sandbox"], directory: fixture.directory.url, timeout: 60)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(r.status == 1)
        #expect(r.stdout.contains("[cannotRead] /proc/self is on a file system of the process or the kernel"), "\(r.stdout)")
    }

    /// Links to directories other than an ancestor are followed, as busted follows them: a maze
    /// of them (8 links a level, 8 levels) is a walk of millions of paths, stopped at the limit.
    @Test func aWalkPastTheTimeLimitStops() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("b", function() end)"#])
        let levels = (0..<8).map { fixture.directory.url.appendingPathComponent("maze/l\($0)").path }
        for (i, level) in levels.enumerated() {
            try FileManager.default.createDirectory(atPath: level, withIntermediateDirectories: true)
            guard i + 1 < levels.count else { continue }
            for k in 0..<8 { try FileManager.default.createSymbolicLink(atPath: level + "/x\(k)", withDestinationPath: levels[i + 1]) }
        }
        let start = Date()
        let r = try Ckrun.run(["test", "--timeout", "1", "maze/l0", "spec"], directory: fixture.directory.url, timeout: 120)
        #expect(Date().timeIntervalSince(start) < 15)
        #expect(r.status == 1)
        #expect(r.stdout.contains("[timeout] finding the test files took longer than the time limit"), "\(r.stdout)")
    }
}
