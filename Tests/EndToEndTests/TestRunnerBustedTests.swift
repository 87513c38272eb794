import CKTestHelpers
import Foundation
import Testing

/// busted compatibility as seen from outside: run order, configuration, options, JSON output.
@Suite("ckrun test: busted's semantics, options and .busted")
struct TestRunnerBustedTests {
    static func json(_ result: ProcessResult) throws -> [String: [[String: Any]]] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        var lists: [String: [[String: Any]]] = [:]
        for key in ["successes", "failures", "errors", "pendings"] { lists[key] = object[key] as? [[String: Any]] ?? [] }
        return lists
    }

    static func names(_ list: [[String: Any]]?) -> [String] { (list ?? []).compactMap { $0["name"] as? String } }

    @Test func outputJsonIsBustedsReportAndTellsFailuresFromErrors() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": """
        describe("d", function()
          it("passes", function() assert.is_true(true) end)
          it("fails", function() assert.are.equal(1, 2) end)
          it("errors", function() error("boom") end)
          pending("later")
          describe("nested", function()
            before_each(function() error("hook broke") end)
            it("never runs", function() end)
          end)
        end)
        """])
        let result = try fixture.test("-o", "json")
        #expect(result.status == 1)
        let report = try Self.json(result)
        #expect(Self.names(report["successes"]) == ["d passes"])
        #expect(Self.names(report["failures"]) == ["d fails"])
        #expect(Self.names(report["errors"]) == ["d errors", "d nested before_each"])
        #expect(Self.names(report["pendings"]) == ["d later"])
        #expect(result.stderr.contains("1 passed, 3 failed, 1 skipped"))
        // As busted's outputHandlers/base.lua: the element by its own name and descriptor, a
        // message only when the test did not pass.
        let elements = ["successes", "failures", "errors", "pendings"].flatMap { key in
            (report[key] ?? []).map { entry in
                let element = entry["element"] as? [String: Any] ?? [:]
                return "\(element["descriptor"] ?? "?") \(element["name"] ?? "?") \(entry["message"] == nil ? "-" : "m")"
            }
        }
        #expect(elements == ["it passes -", "it fails m", "it errors m", "before_each before_each m", "pending later m"])
        let trace = report["successes"]?.first?["trace"] as? [String: Any] ?? [:]
        #expect(trace["source"] as? String == "@a_spec.lua" && trace["currentline"] as? Int == 2 && trace["message"] as? String == "passes")
    }

    /// Found by the runner's fuzzer (issue 24), checked against busted 2.1.1: a test whose body
    /// and finally both fail is two entries (busted records each when it is raised), and a
    /// file's own error is named up to the suite.
    @Test func aFailingBodyAndFinallyAreTwoEntriesAndAFileErrorIsTheSuites() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": """
        it("fails twice", function() finally(function() error("in finally") end); assert.are.equal(1, 2) end)
        it("errors twice", function() finally(function() assert.is_true(false) end); error("in body") end)
        it("fails in finally only", function() finally(function() error("in finally") end) end)
        """, "b_spec.lua": #"it("never runs", function() end) error("file broke")"#])
        let report = try Self.json(try fixture.test("-o", "json"))
        #expect(Self.names(report["failures"]) == ["fails twice"])
        #expect(Self.names(report["errors"]) == ["fails twice", "errors twice", "errors twice", "fails in finally only", "suite b_spec.lua"])
        #expect(try fixture.test().lastLine == "0 passed, 6 failed")
    }

    @Test func nestedBlocksRunWhenReachedAfterEarlierHooks() throws {
        // middleclass's pattern: a nested describe body reads what an earlier before_each set.
        let fixture = try TestRunnerFixture(["order_spec.lua": """
        describe("outer", function()
          local value
          before_each(function() value = "set" end)
          it("first", function() end)
          describe("inner", function()
            local seen = value
            it("saw the hook's value when its body ran", function() assert.are.equal("set", seen) end)
          end)
        end)
        """])
        let result = try fixture.test()
        #expect(result.lastLine == "2 passed, 0 failed")
    }

    @Test func theBustedFileSuppliesRootLpathHelperAndPattern() throws {
        let fixture = try TestRunnerFixture([
            ".busted": """
            return {
              default = { ROOT = { "checks" }, pattern = "_check", lpath = "lib/?.lua", helper = "helper.lua" },
              other = { ROOT = { "checks" }, pattern = "_check", ["exclude-tags"] = "slow" },
            }
            """,
            "lib/greet.lua": "return { hello = function() return 'hi' end }",
            "helper.lua": "HELPED = true",
            "checks/greet_check.lua": """
            it("finds modules on lpath", function() assert.are.equal("hi", require("greet").hello()) end)
            it("ran the helper first", function() assert.is_true(HELPED) end)
            """,
            "checks/ignored_spec.lua": "it('is not matched by the pattern', function() error('ran') end)",
            "checks/tagged_check.lua": "it('is slow #slow', function() end)",
        ])
        let result = try fixture.test()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lastLine == "3 passed, 0 failed")
        // --run picks another task; the command line wins over the file.
        let other = try fixture.test("--run", "other", "--filter", "slow")
        #expect(other.lastLine == "0 passed, 0 failed") // no test matched: the slow one is excluded by the task
        #expect(other.status == 0)
        #expect(try fixture.test("--run", "nope").status == 64)
    }

    @Test func bustedsDefaultLpathFindsModulesUnderSrc() throws {
        let fixture = try TestRunnerFixture([
            "src/mylib/init.lua": "return { answer = 42 }",
            "spec/lib_spec.lua": "it('requires from src', function() assert.are.equal(42, require('mylib').answer) end)",
        ])
        #expect(try fixture.test().lastLine == "1 passed, 0 failed")
    }

    @Test func bustedOptionNamesWork() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": Fixtures.tagged, "spec/b_spec.lua": Fixtures.passing])
        #expect(try fixture.test("-t", "fast").lastLine == "2 passed, 0 failed")
        #expect(try fixture.test("--filter-out", "cart").lastLine == "3 passed, 0 failed")
        #expect(try fixture.test("--exclude-pattern", "^a_").lastLine == "2 passed, 0 failed")
        #expect(try fixture.test("-p", "b_spec").lastLine == "2 passed, 0 failed")
        #expect(try fixture.test("--repeat", "2", "spec/b_spec.lua").lastLine == "4 passed, 0 failed")
        let sorted = try fixture.test("--sort", "spec/a_spec.lua").outcomeLines
        #expect(sorted.first?.hasSuffix("cart adds an item #fast") == true)
    }

    @Test func textOutputHasNoColourWhenNotATerminal() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": Fixtures.mixed])
        let stdout = try fixture.test().stdout
        #expect(!stdout.contains("\u{1B}["))
    }
}

@Suite("ckrun test: snapshots, Bazel and shard timings")
struct TestRunnerExtrasTests {
    static let snapshot = #"it("tree", function() assert.tree_snapshot("Root\n  " .. (os.getenv("CHILD") or "A")) end)"#

    @Test func treeSnapshotsAreWrittenComparedAndUpdated() throws {
        let fixture = try TestRunnerFixture(["ui_spec.lua": Self.snapshot])
        #expect(try fixture.test().lastLine == "1 passed, 0 failed")
        #expect(try fixture.read("__snapshots__/ui_spec.snap") == "== tree #1\nRoot\n  A\n")
        let changed = try Ckrun.run(["test", "."], directory: fixture.directory.url, environment: ["CHILD": "B"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("-   A\n   +   B"))
        let updated = try Ckrun.run(["test", "--update-snapshots", "."], directory: fixture.directory.url, environment: ["CHILD": "B"])
        #expect(updated.lastLine == "1 passed, 0 failed")
        #expect(try fixture.read("__snapshots__/ui_spec.snap") == "== tree #1\nRoot\n  B\n")
    }

    @Test func bazelShardingVariablesAndXMLOutputFile() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": Fixtures.tagged, "b_spec.lua": Fixtures.passing])
        var lines: [String] = []
        for index in 0..<2 {
            let environment = ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": String(index),
                               "TEST_SHARD_STATUS_FILE": "status-\(index)", "XML_OUTPUT_FILE": "out/\(index).xml"]
            let result = try Ckrun.run(["test", "."], directory: fixture.directory.url, environment: environment)
            lines += result.outcomeLines
            #expect(FileManager.default.fileExists(atPath: fixture.directory.url.appendingPathComponent("status-\(index)").path))
            #expect(try fixture.read("out/\(index).xml").contains("<testsuites"))
        }
        #expect(lines.count == 6 && Set(lines).count == 6)
    }

    @Test func shardTimingsGiveWholeFilesBalancedByAnEarlierReport() throws {
        var files: [String: String] = [:]
        for name in ["a", "b", "c", "d"] { files["\(name)_spec.lua"] = "it('\(name)', function() end)" }
        files["previous.xml"] = """
        <testsuites><testsuite name="a_spec.lua" tests="1" time="9.0"></testsuite>
        <testsuite name="b_spec.lua" tests="1" time="5.0"></testsuite><testsuite name="c_spec.lua" tests="1" time="4.0"></testsuite>
        <testsuite name="d_spec.lua" tests="1" time="1.0"></testsuite></testsuites>
        """
        let fixture = try TestRunnerFixture(files)
        let first = try fixture.test("--shard", "1/2", "--shard-timings", "previous.xml").outcomeLines
        let second = try fixture.test("--shard", "2/2", "--shard-timings", "previous.xml").outcomeLines
        // Longest first to the least-loaded shard: a (9) | b (5) + c (4) | then d (1) to a's shard.
        #expect(first == ["ok    a_spec.lua:1: a", "ok    d_spec.lua:1: d"])
        #expect(second == ["ok    b_spec.lua:1: b", "ok    c_spec.lua:1: c"])
    }

    @Test func coverageWritesLuacovStatsAndLcovForTheCodeUnderTestOnly() throws {
        let fixture = try TestRunnerFixture([
            "src/calc.lua": "local M = {}\nfunction M.add(a, b)\n  return a + b\nend\nfunction M.unused()\n  return 0\nend\nreturn M\n",
            "spec/calc_spec.lua": "it('adds', function() assert.are.equal(3, require('calc').add(1, 2)) end)",
        ])
        for jobs in ["1", "2"] {
            // Counts add up in an existing stats file, as LuaCov's do: each run starts from none.
            try? FileManager.default.removeItem(at: fixture.directory.url.appendingPathComponent("luacov.stats.out"))
            let result = try fixture.test("--coverage", "--jobs", jobs, "spec")
            #expect(result.status == 0)
            let stats = try fixture.read("luacov.stats.out")
            #expect(stats.hasPrefix("8:src/calc.lua\n"), "\(stats)")
            let counts = stats.split(separator: "\n")[1].split(separator: " ").map { Int($0) ?? -1 }
            #expect(counts[2] == 1 && counts[5] == 0, "line 3 ran once, line 6 never: \(counts)")
            #expect(!stats.contains("calc_spec"))
            let lcov = try fixture.read("lcov.info")
            #expect(lcov.contains("SF:src/calc.lua\n") && lcov.contains("DA:3,1\n") && lcov.contains("DA:6,0\n"))
            #expect(lcov.hasSuffix("end_of_record\n"))
        }
    }
}

/// busted 2.1.1's command line (busted/modules/cli.lua) as projects' CI scripts write it.
@Suite("ckrun test: busted's command-line options")
struct TestRunnerBustedOptionsTests {
    let fixture: TestRunnerFixture

    init() throws {
        fixture = try TestRunnerFixture([
            "proj/.busted": "return { default = { verbose = true, output = 'gtest' }, other = { ['exclude-tags'] = 'slow' } }",
            "proj/alt.busted": "return { default = { ['filter-out'] = 'second' } }",
            "proj/helper.lua": "HELPER_ARGS = table.concat(arg, '+')",
            "proj/spec/a_spec.lua": """
            it("first", function() print("said by a passing test") end)
            it("second #slow", function() assert.are.equal(5, FROM_E or 5) end)
            pending("later")
            """,
            "proj/spec/deeper/b_spec.lua": "it('deep', function() end)",
            "proj/src/five.lua": "return 5",
            "proj/spec/h_check.lua": "it('sees -Xhelper', function() assert.are.equal('a+b+c', HELPER_ARGS) end)",
        ])
    }

    @Test func everyBustedOptionIsAccepted() throws {
        let options: [[String]] = [
            ["-v"], ["--no-verbose"], ["-l"], ["--defer-print"], ["--suppress-pending"], ["--no-auto-insulate"],
            ["--lazy"], ["--no-lazy"], ["--lua=lua5.4"], ["--ignore-lua"], ["--coverage-config-file=x"], ["--no-coverage"],
            ["--no-sort"], ["--no-shuffle"], ["--shuffle-files"], ["--shuffle-tests"], ["--sort-files"], ["--sort-tests"],
            ["--keep-going"], ["-k"], ["-R"], ["--no-recursive"], ["-s"], ["--no-enable-sound"], ["-Xoutput", "x"],
            ["--loaders=lua"], ["-o", "TAP"], ["-o", "plainTerminal"], ["-o", "utfTerminal"], ["--lang=en"],
        ]
        for option in options {
            let result = try fixture.test(["-C", "proj"] + option)
            #expect(result.status == 0, "\(option): \(result.stderr)")
        }
    }

    @Test func directoryConfigFileStatementsAndHelperOptions() throws {
        // -C reads that directory's .busted (gtest, where busted shows what tests print live).
        let verbose = try fixture.test("-C", "proj")
        #expect(verbose.stdout.contains("[ RUN      ]"))
        #expect(verbose.stdout.contains("\nsaid by a passing test\n"))
        #expect(verbose.lastLine == "3 passed, 0 failed, 1 skipped")
        // -f replaces .busted (named from where ckrun started, as busted reads it before -C);
        // -e runs in each file's state first.
        let other = try fixture.test("-C", "proj", "-f", "proj/alt.busted", "-e", "FROM_E = 6")
        #expect(other.lastLine == "2 passed, 0 failed, 1 skipped")
        #expect(!other.stdout.contains("said by a passing test"))
        #expect(try fixture.test("-C", "proj", "-e", "FROM_E = 6").lastLine == "2 passed, 1 failed, 1 skipped")
        // -Xhelper options are the helper's arg; --no-recursive stays out of spec/deeper.
        let helped = try fixture.test("-C", "proj", "--helper", "helper.lua", "-Xhelper", "a,b", "-Xhelper", "c",
                                      "-p", "_check", "spec")
        #expect(helped.lastLine == "1 passed, 0 failed")
        let flat = try fixture.test("-C", "proj", "--no-recursive", "--suppress-pending", "spec")
        #expect(flat.lastLine == "2 passed, 0 failed")   // busted counts no suppressed pending test either
        #expect(!flat.stdout.contains("SKIP"))
        #expect(!flat.stdout.contains("deep"))
        #expect(try fixture.test("-C", "proj", "-f", "alt.busted").status == 64)
        // -e runs once the paths are set: a module on --lpath (busted's default ./src) is found.
        let required = try fixture.test("-C", "proj", "-e", "FROM_E = require('five')", "--filter", "second")
        #expect(required.lastLine == "1 passed, 0 failed", "\(required.stdout)")
    }

    @Test func bustedsOutputNames() throws {
        let tap = try fixture.test("-C", "proj", "-o", "TAP")
        #expect(tap.stdout.hasPrefix("TAP version 13"))
        let custom = try fixture.test("-C", "proj", "-o", "./handlers/mine.lua")
        #expect(custom.status == 0)
        #expect(custom.stderr.contains("no output handler './handlers/mine.lua'"))
        #expect(custom.lastLine == "3 passed, 0 failed, 1 skipped")
    }
}
