import CKTestHelpers
import Foundation
import Testing

/// `--shard-timings` as docs/testing.md's CI recipe uses it, and Bazel's shard variables.
@Suite("ckrun test: shard timings and Bazel's shard variables")
struct TestRunnerShardingTests {
    /// Four files of one test each: a_spec.lua … d_spec.lua.
    static func fourFiles(_ extra: [String: String] = [:]) throws -> TestRunnerFixture {
        var files = extra
        for name in ["a", "b", "c", "d"] { files["spec/\(name)_spec.lua"] = "it('\(name)', function() end)" }
        return try TestRunnerFixture(files)
    }

    /// Shard 1/2 and 2/2's test lines, each shard checked to have exited 0 with `note` on stderr.
    static func twoShards(_ fixture: TestRunnerFixture, _ arguments: [String], note: String?) throws -> [[String]] {
        try (1...2).map { index in
            let result = try fixture.test(["--shard", "\(index)/2"] + arguments + ["spec"])
            #expect(result.status == 0, "\(result.stderr)")
            if let note { #expect(result.stderr.contains(note), "\(result.stderr)") } else { #expect(!result.stderr.contains("note:"), "\(result.stderr)") }
            return result.outcomeLines
        }
    }

    @Test func aMissingTimingsFileIsANoteAndShardsSplitWholeFilesByCount() throws {
        let fixture = try Self.fourFiles()
        let shards = try Self.twoShards(fixture, ["--shard-timings", "ci/junit.xml"], note: "ci/junit.xml does not exist yet")
        #expect(shards[0] == ["ok    spec/a_spec.lua:1: a", "ok    spec/c_spec.lua:1: c"])
        #expect(shards[1] == ["ok    spec/b_spec.lua:1: b", "ok    spec/d_spec.lua:1: d"])
    }

    @Test func aTimingsFileThatIsNotAJUnitReportIsANote() throws {
        let fixture = try Self.fourFiles(["ci/junit.xml": "<html><body>not a report</body></html>"])
        let shards = try Self.twoShards(fixture, ["--shard-timings", "ci/junit.xml"], note: "ci/junit.xml is not a JUnit report")
        #expect(shards.map(\.count) == [2, 2])
    }

    @Test func timingsWithoutAShardAreANoteAndEveryTestRuns() throws {
        let fixture = try Self.fourFiles()
        let result = try fixture.test("--shard-timings", "ci/junit.xml", "spec")
        #expect(result.status == 0)
        #expect(result.stderr.contains("--shard-timings does nothing without --shard"), "\(result.stderr)")
        #expect(result.lastLine == "4 passed, 0 failed")
    }

    @Test func theShardsReportsConcatenatedAreTheNextRunsTimings() throws {
        let fixture = try Self.fourFiles()
        // The first run: no timings yet; each shard writes its report, as in the CI recipe.
        var reports = ""
        for index in 1...2 {
            let result = try fixture.test("--shard", "\(index)/2", "--shard-timings", "ci/junit.xml", "--junit", "out/junit-\(index).xml", "spec")
            #expect(result.status == 0 && result.stderr.contains("does not exist yet"), "\(result.stderr)")
            reports += try fixture.read("out/junit-\(index).xml")
        }
        try fixture.directory.write("ci/junit.xml", reports)
        // The next run reads the concatenation (two XML documents) without a note.
        let shards = try Self.twoShards(fixture, ["--shard-timings", "ci/junit.xml"], note: nil)
        #expect(Set(shards.joined()).count == 4 && shards.joined().count == 4)
    }

    @Test func timingsMatchOtherSpellingsOfTheSamePathInConcatenatedReports() throws {
        let fixture = try Self.fourFiles()
        let root = fixture.directory.url.path
        // Two reports back to back; a by "./", b absolute, c by busted's classname="FILE:LINE".
        try fixture.directory.write("ci/junit.xml", """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="./spec/a_spec.lua" tests="1" time="9.0"></testsuite>
        <testsuite time="5.0" name="\(root)/spec/b_spec.lua" tests="1"></testsuite></testsuites>
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="busted" tests="1">
        <testcase classname="spec/c_spec.lua:1" name="c" time="4.0"/></testsuite>
        <testsuite name="spec/./d_spec.lua" tests="1" time="1.0"></testsuite></testsuites>
        """)
        let shards = try Self.twoShards(fixture, ["--shard-timings", "ci/junit.xml"], note: nil)
        // Longest first to the least-loaded shard: a (9) | b (5) + c (4) | then d (1) to a's shard.
        #expect(shards[0] == ["ok    spec/a_spec.lua:1: a", "ok    spec/d_spec.lua:1: d"])
        #expect(shards[1] == ["ok    spec/b_spec.lua:1: b", "ok    spec/c_spec.lua:1: c"])
    }

    @Test(arguments: [("2", "2"), ("-1", "2"), ("one", "2"), ("0", "0"), ("0", "many"), ("1", "")])
    func anInvalidBazelShardIsAUsageError(index: String, total: String) throws {
        let fixture = try Self.fourFiles()
        let environment = ["TEST_SHARD_INDEX": index, "TEST_TOTAL_SHARDS": total]
        let result = try Ckrun.run(["test", "spec"], directory: fixture.directory.url, environment: environment)
        #expect(result.status == 64)
        #expect(result.stderr.contains("TEST_SHARD_INDEX") && result.stderr.contains("TEST_TOTAL_SHARDS"), "\(result.stderr)")
        #expect(result.outcomeLines.isEmpty)
    }
}
