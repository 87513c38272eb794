import CKTestHelpers
import Foundation
import Testing

/// Where the shape of a run parted from busted 2.1.1's (atk-busted5 05, 06, 08, 09, 10, 11, 02):
/// what runs, what stops it, what one mistake costs, where an error is placed, what is listed
/// and what the TAP and JSON reports carry. Each holds under --jobs 2 as under --jobs 1.
@Suite("ckrun test: busted's run shape")
struct TestRunnerBustedRunShapeTests {
    static let jobs: [[String]] = [[], ["--jobs", "2"]]

    static func tapPoints(_ result: ProcessResult) -> [String] {
        result.lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
    }

    /// busted's only default ROOT is `spec`: without it the run fails, as busted's does.
    @Test func withoutPathsAndWithoutSpecTheRunFails() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("top", function() end)"#])
        for jobs in Self.jobs {
            // Not fixture.test, which names `.` for a fixture without `spec`.
            let result = try Ckrun.run(["test"] + jobs, directory: fixture.directory.url)
            #expect(result.status == 1, "\(jobs): \(result.stdout)")
            #expect((result.stdout + result.stderr).contains("Cannot find file or directory: spec"), "\(result.stdout)\(result.stderr)")
            #expect(!result.stdout.contains("ok    a_spec.lua"))
        }
    }

    /// busted sets its helper up once, before any test: one that raises stops the run there, once.
    @Test func aHelperThatRaisesStopsTheRunWithOneError() throws {
        var files = ["helper.lua": "error('helper broke')"]
        for n in 1...3 { files["spec/f\(n)_spec.lua"] = #"it("t", function() end)"# }
        let fixture = try TestRunnerFixture(files)
        for jobs in Self.jobs {
            let result = try fixture.test(["--helper", "helper.lua", "-o", "TAP"] + jobs)
            #expect(result.status == 1, "\(jobs): \(result.stdout)")
            let points = Self.tapPoints(result)
            #expect(points.count == 1, "\(jobs): \(result.stdout)")
            #expect(result.stdout.contains("failed running the specified helper (helper.lua), error: helper.lua:1: helper broke"), "\(result.stdout)")
            #expect(!result.stdout.contains("ok 2") && !points.contains { $0.hasPrefix("ok ") })
        }
        // One id in front (os.exit's own), and a module helper's message names no chunk of the runner's.
        try fixture.directory.write("exits.lua", "os.exit(3)")
        let exits = try fixture.test("--helper", "exits.lua")
        #expect(exits.stdout.contains("[testFailure] failed running the specified helper (exits.lua), error: exits.lua:1: os.exit(3)"), "\(exits.stdout)")
        let module = try fixture.test("--helper", "no_such_helper_module")
        #expect(module.stdout.contains("(no_such_helper_module), error: module 'no_such_helper_module' not found"), "\(module.stdout)")
    }

    /// A test or block named with a table, boolean or function: busted's table.concat of the
    /// names fails as it registers, an error of the enclosing block; the rest of the file runs.
    /// So does a block whose randomize() seed no integer stands for.
    @Test func aBadNameOrSeedIsAnErrorOfItsBlockAndTheFileGoesOn() throws {
        let fixture = try TestRunnerFixture([
            "spec/n_spec.lua": """
            it("before", function() end)
            describe("blk", function() it({ input = 1 }, function() end) end)
            it("after", function() end)
            describe("more", function() it("still runs", function() end) it(true, function() end) end)
            """,
            "spec/i_spec.lua": """
            insulate({}, function() it("inside", function() end) end)
            it("i after", function() end)
            """,
            "spec/r_spec.lua": """
            it("r before", function() end)
            describe("d", function() randomize(1.5) it("x", function() end) it("y", function() end) end)
            it("r after", function() end)
            """,
        ])
        for jobs in Self.jobs {
            let result = try fixture.test(["-o", "TAP"] + jobs)
            #expect(result.status == 1)
            // An insulate's table name fails its first test's registration (busted's own report then fails).
            #expect(Self.tapPoints(result) == ["not ok 1 - (table)", "ok 2 - i after",
                                               "ok 3 - before", "not ok 4 - blk", "ok 5 - after", "not ok 6 - more",
                                               "ok 7 - r before", "not ok 8 - d", "ok 9 - r after"], "\(jobs): \(result.stdout)")
            #expect(result.stdout.contains("at: \"spec/n_spec.lua:2\""), "\(result.stdout)")
        }
    }

    /// pending() inside a test with no string: busted's pending object cannot be shown
    /// (`'__tostring' must return a string`): an error of the test, and the run fails.
    @Test func pendingWithoutAStringInATestIsAnError() throws {
        let fixture = try TestRunnerFixture(["spec/b_spec.lua": """
        it("x", function() pending({ reason = 1 }) end)
        it("y", function() pending() end)
        it("z", function() pending(42) end)
        """])
        for jobs in Self.jobs {
            let result = try fixture.test(["-o", "TAP"] + jobs)
            #expect(result.status == 1, "\(jobs): \(result.stdout)")
            #expect(Self.tapPoints(result) == ["not ok 1 - x", "not ok 2 - y", "ok 3 - # SKIP spec/b_spec.lua:3: 42"], "\(jobs): \(result.stdout)")
        }
    }

    /// A file's top-level error is placed where it was raised, never by reading its message: an
    /// id in front, another file's name or a URL in the text changes nothing.
    @Test func aFilesErrorIsPlacedWhereItWasRaised() throws {
        let fixture = try TestRunnerFixture([
            "spec/x_spec.lua": "it(\"t\", function() end)\nck.after(-5, 3)\n",
            "spec/u_spec.lua": "it(\"t2\", function() end)\nos.exit(0)\n",
            "spec/w_spec.lua": "it(\"t3\", function() end)\nerror(\"[tag] other.lua:9: hi\", 0)\n",
            "spec/c_spec.lua": "it(\"t4\", function() end)\nerror(\"http://host:8080: down\", 0)\n",
        ])
        for jobs in Self.jobs {
            let tap = try fixture.test(["-o", "TAP"] + jobs)
            let places = tap.lines.filter { $0.hasPrefix("  at: ") }
            #expect(places == ["  at: \"spec/c_spec.lua:2\"", "  at: \"spec/u_spec.lua:2\"", "  at: \"spec/w_spec.lua:2\"",
                               "  at: \"spec/x_spec.lua:2\""], "\(jobs): \(tap.stdout)")
            let gtest = try fixture.test(["-o", "gtest"] + jobs)
            #expect(gtest.stdout.contains("spec/x_spec.lua @ 2: suite spec/x_spec.lua"), "\(gtest.stdout)")
        }
    }

    /// busted's --list leaves a declared pending test out under --suppress-pending.
    @Test func listSuppressPendingLeavesDeclaredPendingTestsOut() throws {
        let fixture = try TestRunnerFixture(["spec/p_spec.lua": """
        describe("d", function()
          it("a", function() end)
          pending("declared pending")
          it("b", function() pending("runtime") end)
        end)
        """])
        let result = try fixture.test("--list", "--suppress-pending")
        #expect(result.lines == ["spec/p_spec.lua:2: d a", "spec/p_spec.lua:4: d b"], "\(result.stdout)")
        #expect(try fixture.test("--list").lines.count == 3)
    }

    /// busted's TAP under -v: `# FILE @ LINE: full name` before each test, and what it printed;
    /// `-o json` keeps what tests print (on standard error: standard output is the document).
    @Test func verboseTapNamesEachTestAndJsonKeepsPrints() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": """
        describe("d", function()
          it("a", function() end)
          it("b", function() print("hi from b") end)
          pending("p")
        end)
        """])
        for jobs in Self.jobs {
            let tap = try fixture.test(["-v", "-o", "TAP"] + jobs)
            #expect(tap.lines.filter { !$0.hasPrefix("TAP version") && !$0.hasPrefix("# spec/a_spec.lua") || $0.contains("@") } == [
                "# spec/a_spec.lua @ 2: d a", "ok 1 - d a", "# spec/a_spec.lua @ 3: d b", "# hi from b", "ok 2 - d b",
                "# spec/a_spec.lua @ 4: d p", "ok 3 - # SKIP d p", "1..3",
            ], "\(jobs): \(tap.stdout)")
            let json = try fixture.test(["-o", "json"] + jobs)
            #expect(json.stderr.contains("hi from b"), "\(json.stderr)")
            #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(json.stdout)")
        }
    }
}
