import CKTestHelpers
import Foundation
import Testing

/// lcov.info's list of lines that could run (`DA:` lines), as luacov's reporter counts them
/// (checked with luacov's own reporter under lua5.4 on the same source and stats).
@Suite("ckrun test: coverage's lines that could run")
struct TestRunnerCoverageTests {
    /// Long comments and long strings across lines, `]]` inside a level-2 comment and a level-1
    /// string, and a function never called (its lines could run, with 0 hits).
    static let module = [
        "--[[ licence",            // 1  a long comment
        "  text here ]]",          // 2  its end
        "--[==[ another",          // 3  a level-2 long comment
        "  ]] still comment",      // 4  `]]` does not end it
        "]==] local after = 1",    // 5  code after the comment's end
        "local M = {}",            // 6
        "M.doc = [[",              // 7  Lua gives the string's code to line 9, where it ends
        "line of a string",        // 8
        "]]",                      // 9
        "local s = [=[",           // 10
        "x ]] y",                  // 11 `]]` does not end a level-1 string
        "]=]",                     // 12
        "function M.f() return 1 end -- trailing comment", // 13
        "function M.never()",      // 14
        "  print([[",              // 15 a call starts here: code
        "  a]], 2)",               // 16
        "  return s",              // 17
        "end",                     // 18 the closure is made here: it ran, but luacov leaves out a lone `end`
        "return M",                // 19
    ]
    static let couldRun = [5, 6, 9, 12, 13, 14, 15, 16, 17, 19]

    static let spec = """
    local m, crlf = require("m"), require("crlf")
    it("f", function() assert.equal(1, m.f()); assert.equal(1, crlf.f()) end)
    """

    /// `DA:` line numbers per `SF:` file of an lcov tracefile.
    static func listedLines(_ lcov: String) -> [String: [Int]] {
        var lines: [String: [Int]] = [:]
        var file = ""
        for line in lcov.split(separator: "\n") {
            if line.hasPrefix("SF:") { file = String(line.dropFirst(3)) }
            if line.hasPrefix("DA:"), let number = Int(line.dropFirst(3).prefix { $0 != "," }) { lines[file, default: []].append(number) }
        }
        return lines
    }

    /// As luacov's coroutine wrapper: lines a coroutine runs count, and a coroutine of the code
    /// under test that loops is still stopped by the time limit (its line hook checks it).
    /// Coverage's files have fixed names in the working directory: one that cannot be written
    /// says which files, where, and what to do (it said "name a file to write", which no option does).
    @Test func coverageThatCannotBeWrittenSaysWhatToDo() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("a", function() end)"#, "lcov.info/keep": ""])
        let result = try fixture.test("--coverage", "a_spec.lua")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("[cannotWrite] cannot write the coverage reports (luacov.stats.out and lcov.info, in the working directory): lcov.info is a directory; their names are fixed: clear the way there, or run from a directory ckrun can write, then run again"), "\(result.stderr)")
    }

    @Test func linesRunInCoroutinesCountAndTheirLoopsAreStopped() throws {
        let fixture = try TestRunnerFixture([
            "gen.lua": """
            local M = {}
            function M.numbers(n)
              return coroutine.wrap(function()
                for i = 1, n do
                  coroutine.yield(i)
                end
              end)
            end
            function M.spin() return coroutine.resume(coroutine.create(function() local x = 0 while true do x = x + 1 end end)) end
            return M
            """,
            "gen_spec.lua": """
            local gen = require "gen"
            it("yields", function()
              local got = {}
              for v in gen.numbers(3) do got[#got + 1] = v end
              assert.are.same({1, 2, 3}, got)
            end)
            it("spins", function() gen.spin() end)
            """,
        ])
        let result = try Ckrun.run(["test", "--coverage", "--timeout", "0.3", "."], directory: fixture.directory.url, timeout: 20)
        #expect(result.outcomeLines == ["ok    gen_spec.lua:2: yields", "ERROR gen_spec.lua:7: spins"])
        #expect(result.stdout.contains("[timeout]"))
        let stats = try fixture.read("luacov.stats.out").split(separator: "\n")
        let hits = try #require(stats.firstIndex { $0.hasSuffix(":gen.lua") }.map { stats[$0 + 1].split(separator: " ").map { Int($0) ?? -1 } })
        #expect(hits.count >= 5 && hits[3] == 4 && hits[4] == 3, "lines 4 and 5 run inside the coroutine: \(hits)")
    }

    @Test func longCommentsAndStringsCountAsLuacovCountsThem() throws {
        let fixture = try TestRunnerFixture([
            "src/m.lua": Self.module.joined(separator: "\n") + "\n",
            // The same lines with CRLF ends, after a `#!` line Lua skips.
            "src/crlf.lua": (["#!/usr/bin/env lua"] + Self.module).joined(separator: "\r\n") + "\r\n",
            "spec/m_spec.lua": Self.spec,
        ])
        #expect(try fixture.test("--coverage", "spec").status == 0)
        let lcov = try fixture.read("lcov.info")
        let listed = Self.listedLines(lcov)
        #expect(listed["src/m.lua"] == Self.couldRun)
        #expect(listed["src/crlf.lua"] == Self.couldRun.map { $0 + 1 })
        #expect(lcov.contains("SF:src/m.lua\n") && lcov.contains("LF:10\nLH:7\n"), "\(lcov)")
    }

    /// A module of table fields holding functions (issue 25): the `name = function(...)` headers
    /// of a table constructor leave no trace in Lua's line hook, so luacov counts them only when
    /// they ran; as luacov's own reporter counts them (lua5.4, luacov 0.17, same stats: 6 of 8).
    static let fieldsModule = [
        "local calc = {",              // 1  run
        "  add = function(a, b)",      // 2  not counted: a field's function header
        "    return a + b",            // 3
        "  end,",                      // 4  not counted: a lone end
        "  [\"sub\"] = function(a, b)", // 5  not counted either
        "    return a - b",            // 6
        "  end,",                      // 7
        "  name = \"calc\",",          // 8  run
        "}",                           // 9
        "function calc.mul(a, b)",     // 12 (after a blank line and a comment)
        "  return a * b",              // 13 never run
        "end",
        "local function helper(x)",    // 16 not counted: `local function` makes no instruction there
        "  return x",                  // 17 never run
        "end",
        "return calc",                 // 20
    ]

    @Test func fieldFunctionHeadersCountAsLuacovCountsThemWithASummaryAndGenhtmlRendersTheReport() throws {
        var lines = Self.fieldsModule
        lines.insert(contentsOf: ["", "-- Not called by the tests."], at: 9)
        lines.insert("", at: 14)
        lines.insert("", at: 18)
        let fixture = try TestRunnerFixture([
            "src/calc.lua": lines.joined(separator: "\n") + "\n",
            "spec/calc_spec.lua": """
            local calc = require "calc"
            it("adds", function() assert.are.equal(3, calc.add(1, 2)) end)
            it("subs", function() assert.are.equal(-1, calc.sub(1, 2)) end)
            """,
        ])
        let result = try fixture.test("--coverage", "spec")
        #expect(result.status == 0)
        #expect(Self.listedLines(try fixture.read("lcov.info"))["src/calc.lua"] == [1, 3, 6, 8, 12, 13, 17, 20])
        #expect(result.stderr.contains("""
            File         Hits Missed Coverage
            ---------------------------------
            src/calc.lua 6    2      75.00%
            ---------------------------------
            Total        6    2      75.00%

            """), "\(result.stderr)")
        // genhtml (Debian's lcov, which scripts/setup installs) renders the tracefile.
        let genhtml = try Ckrun.runProcess(URL(fileURLWithPath: "/usr/bin/genhtml"), ["lcov.info", "-o", "coverage"],
                                           directory: fixture.directory.url)
        #expect(genhtml.status == 0, "\(genhtml.stderr)")
        #expect(genhtml.stdout.contains("lines......: 75.0% (6 of 8 lines)"), "\(genhtml.stdout)")
        #expect(FileManager.default.fileExists(atPath: fixture.directory.url.appendingPathComponent("coverage/index.html").path))
    }
}
