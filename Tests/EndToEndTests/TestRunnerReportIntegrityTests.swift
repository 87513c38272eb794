import CKTestHelpers
import Foundation
import Testing

/// Issue 24: what a test controls (names, output, messages, chunk names, registration order)
/// cannot forge a report's structure or move a test between shards; sizes a user gives are bounded.
@Suite("ckrun test: reports escape every field, shards key on names, inputs are bounded")
struct TestRunnerReportIntegrityTests {
    static let forging = #"""
    it("name\r\nok 90 - forged by a name", function() end)
    it("output", function() io.write("x\r\nok 91 - forged by output\r\n") end)
    it("fails", function() io.write("y\rok 92 - forged\r\n") error("m\r\nok 93 - forged by a message") end)
    pending("pending\r\nok 94 - forged by a pending test")
    it("skips", function() pending("why\rok 95 - forged by a reason") end)
    io.write("file output\r\nok 96 - forged by the file's output\rok 97 - and a CR\u{2028}ok 98 - and LS\n")
    """#

    /// Class 7: each report has one escaper used for every field: a CR LF, a CR or a Unicode line
    /// separator in a name, an output or a message never starts a TAP line of its own.
    @Test func noFieldForgesATAPTestPoint() throws {
        let fixture = try TestRunnerFixture(["forge_spec.lua": Self.forging])
        let result = try fixture.test("-o", "tap")
        let lines = LineSplitter.allBreaks(result.stdout)
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(points.count == 5, "\(points)")
        #expect(!lines.contains { $0.range(of: #"^\s*(not )?ok 9\d"#, options: .regularExpression) != nil }, "\(result.stdout)")
        #expect(lines.last == "1..5")
        #expect(points[0] == #"ok 1 - name\r\nok 90 - forged by a name"#)
    }

    /// A test file's name is a field too (found attacking this work): its `# file` comment in TAP
    /// and its place in the text report's lines.
    @Test func aFileNameForgesNoLine() throws {
        let fixture = try TestRunnerFixture(["a\rok 99 - forged by a file name\n_spec.lua": #"it("x", function() end)"#])
        let tap = LineSplitter.allBreaks(try fixture.test("-o", "tap").stdout)
        #expect(tap == ["TAP version 13", #"# a\rok 99 - forged by a file name\n_spec.lua"#, "ok 1 - x", "1..1"], "\(tap)")
        let text = LineSplitter.allBreaks(try fixture.test().stdout)
        #expect(text.first == #"ok    a\rok 99 - forged by a file name\n_spec.lua:1: x"#, "\(text)")
    }

    @Test func textAndListShowANameOnOneLine() throws {
        let fixture = try TestRunnerFixture(["forge_spec.lua": Self.forging])
        let text = LineSplitter.allBreaks(try fixture.test().stdout)
        #expect(!text.contains { $0.hasPrefix("ok 90") || $0.hasPrefix("ok 93") || $0.hasPrefix("ok 94") })
        let listed = LineSplitter.allBreaks(try fixture.test("--list").stdout).filter { !$0.isEmpty }
        #expect(listed.count == 5 && !listed.contains { $0.hasPrefix("ok 9") }, "\(listed)")
    }

    @Test func junitAndJSONHoldEveryTest() throws {
        let fixture = try TestRunnerFixture(["forge_spec.lua": Self.forging + "\n" + #"it("\0\27[31m\30\31<![CDATA[", function() end)"#])
        let json = try fixture.test("-o", "json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let counts = ["successes", "failures", "errors", "pendings"].map { (document[$0] as? [Any])?.count ?? -1 }
        #expect(counts == [3, 0, 1, 2])
        let junit = try JUnitReport(parsing: try fixture.test("-o", "junit").stdout)
        #expect(junit.cases.count == 6)
    }

    /// A chunk named with a line break forged luacov and lcov records.
    @Test func coverageLeavesOutChunkNamesThatWouldForgeRecords() throws {
        let fixture = try TestRunnerFixture(["cov_spec.lua": #"""
        it("loads", function()
          assert(load("local x = 1\nreturn x", "@evil\n3:forged.lua"))()
          assert(load("local x = 1\nreturn x", "@evil2\r\nSF:forged\nDA:1,1"))()
          assert(load("local x = 1\nreturn x", "@fine.lua"))()
        end)
        """#])
        #expect(try fixture.test("--coverage").status == 0)
        #expect(try fixture.read("luacov.stats.out") == "2:fine.lua\n1 1 \n")
        let lcov = try fixture.read("lcov.info")
        #expect(lcov.components(separatedBy: "SF:").count == 2 && lcov.contains("SF:fine.lua\n"), "\(lcov)")
    }

    /// A snapshot keyed by a name with a line break was written on one run and never found on
    /// the next (so it passed forever): the key is escaped in the file, and compares.
    @Test func aSnapshotKeyWithALineBreakCompares() throws {
        let fixture = try TestRunnerFixture(["snap_spec.lua": #"""
        it("compares", function() assert.tree_snapshot(os.getenv("TREE") or "A", "key\nwith\r\na break \\n") end)
        """#])
        #expect(try fixture.test().lastLine == "1 passed, 0 failed")
        #expect(try fixture.read("__snapshots__/snap_spec.snap") == "== key\\nwith\\r\\na break \\\\n\nA\n")
        let changed = try Ckrun.run(["test", "."], directory: fixture.directory.url, environment: ["TREE": "B"])
        #expect(changed.lastLine == "0 passed, 1 failed", "\(changed.stdout)")
        #expect(try fixture.test().lastLine == "1 passed, 0 failed")
    }

    /// A worker's records carry every byte of a name, an output and a message.
    @Test func workersCarryEveryByte() throws {
        let file = #"""
        it("a\29b\30c\31d\ne\rf\0g", function() io.write("\29\30\31\n\r\0", "\30ckrun-test-result x\n") end)
        it("fails \30\31", function() io.write("\n\30ckrun-test-result \n") error("m\29\30\31\n") end)
        """#
        let fixture = try TestRunnerFixture(["a_spec.lua": file, "b_spec.lua": file])
        let one = try fixture.test("-o", "json"), two = try fixture.test("-o", "json", "--jobs", "2")
        func tests(_ report: String) throws -> [String] {
            let document = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any] ?? [:]
            return ["successes", "errors"].flatMap { key in
                (document[key] as? [[String: Any]] ?? []).map { "\(key) \($0["name"] ?? "") \($0["message"] ?? "")" }
            }
        }
        #expect(try tests(one.stdout) == tests(two.stdout))
        #expect(try tests(two.stdout).contains("successes a\u{1D}b\u{1E}c\u{1F}d\ne\rf\0g "))
    }

    /// Class 6: a file that registers its tests from pairs() registers them in another order in
    /// each process; shards keyed on positions skipped some tests and ran others twice.
    @Test func shardsSplitTestsRegisteredFromPairsExactly() throws {
        let file = #"""
        local names = {}
        for i = 1, 40 do names["test " .. i] = true end
        for name in pairs(names) do it(name, function() end) end
        """#
        let fixture = try TestRunnerFixture(["pairs_spec.lua": file])
        let all = Set(try fixture.test("--list").lines)
        #expect(all.count == 40)
        for _ in 0..<4 {
            let first = try fixture.test("--list", "--shard", "1/3").lines, second = try fixture.test("--list", "--shard", "2/3").lines
            let third = try fixture.test("--list", "--shard", "3/3").lines
            #expect(first.count + second.count + third.count == 40)
            #expect(Set(first + second + third) == all)
        }
    }

    /// Class 10: `--repeat` materialised every run before the first (4e9 runs: all the memory).
    @Test func aHugeRepeatIsAUsageError() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("a", function() end)"#])
        let result = try Ckrun.run(["test", "--repeat", "4000000000"], directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 64)
        #expect(result.stderr.contains("more than 100000 file runs"), "\(result.stderr)")
        try fixture.directory.write(".busted", #"return { default = { ["repeat"] = 4000000000 } }"#)
        #expect(try Ckrun.run(["test"], directory: fixture.directory.url, timeout: 30).status == 64)
        #expect(try fixture.test("--repeat", "3").lastLine == "3 passed, 0 failed")
    }

    /// --shard-timings read 220 KB of `<testcase ` (no tag ever ends) in 65 s: a regular
    /// expression tried again at each one. One pass now.
    @Test func shardTimingsAreReadInOnePass() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("a", function() end)"#, "b_spec.lua": #"it("b", function() end)"#])
        try fixture.directory.write("timings.xml", String(repeating: "<testcase ", count: 22_000))
        let result = try Ckrun.run(["test", "--shard", "1/2", "--shard-timings", "timings.xml", "."], directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 0)
        #expect(result.stderr.contains("is not a JUnit report"), "\(result.stderr)")
    }
}

/// Lines as a reader that breaks at CR, CR LF, LF, NEL, LS and PS sees them.
enum LineSplitter {
    static func allBreaks(_ text: String) -> [String] {
        var lines: [String] = [], line = String.UnicodeScalarView(), afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n" && afterCR { continue }
            if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) { lines.append(String(line)); line = .init() } else { line.append(scalar) }
        }
        if !line.isEmpty { lines.append(String(line)) }
        return lines
    }
}
