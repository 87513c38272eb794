import CKTestHelpers
import Foundation
import Testing

/// Where `ckrun test` parted from busted 2.1.1 on Lua 5.4 (`lua5.4 /usr/bin/busted`): the
/// expectations are busted's own outputs, taken from busted 2.1.1 by hand (busted is not
/// installed by scripts/setup), and each holds under --jobs 2 as under --jobs 1.
@Suite("ckrun test: busted 2.1.1's command line, file selection and order")
struct TestRunnerBustedParityTests {
    static let jobs: [[String]] = [[], ["--jobs", "2"]]

    static let taggedFile = """
    describe("outer", function()
      it("one", function() end)
      it("two #fast", function() end)
    end)
    """

    /// `--opt=` with nothing after `=` is lua_cliargs' placeholder value in busted: it excludes
    /// nothing, selects nothing, prefixes nothing; --repeat 0 or less runs nothing; a seed is any number.
    @Test(arguments: [
        (["--exclude-tags="], "2 passed, 0 failed"), (["--filter-out="], "2 passed, 0 failed"),
        (["--exclude-pattern="], "2 passed, 0 failed"), (["--lpath="], "2 passed, 0 failed"),
        (["--cpath="], "2 passed, 0 failed"), (["--tags="], "0 passed, 0 failed"), (["-t="], "0 passed, 0 failed"),
        (["--filter="], "0 passed, 0 failed"), (["--repeat=0"], "0 passed, 0 failed"),
        (["--repeat", "-1"], "0 passed, 0 failed"), (["--seed=1.5"], "2 passed, 0 failed"),
        (["--run=unit"], "2 passed, 0 failed"),
    ])
    func emptyAndUnusualOptionValuesAreBusteds(arguments: [String], lastLine: String) throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": Self.taggedFile])
        for jobs in Self.jobs {
            let result = try fixture.test(arguments + jobs)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.lastLine == lastLine, "\(arguments) \(jobs)")
        }
    }

    /// busted runs a file each time the paths reach it: named twice, by its directory and by name,
    /// or through a second name (a symbolic link).
    @Test func aFileReachedTwiceRunsTwice() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("a", function() end)"#])
        try FileManager.default.createSymbolicLink(atPath: fixture.directory.url.appendingPathComponent("spec/link_spec.lua").path,
                                                   withDestinationPath: "a_spec.lua")
        for jobs in Self.jobs {
            #expect(try fixture.test(["spec/a_spec.lua", "spec/a_spec.lua"] + jobs).lastLine == "2 passed, 0 failed")
            #expect(try fixture.test(["spec", "spec/a_spec.lua"] + jobs).lastLine == "3 passed, 0 failed")
            #expect(try fixture.test(jobs).lastLine == "2 passed, 0 failed")
        }
    }

    /// Paths run in the order given (command line or `.busted` ROOT), each directory's files sorted.
    @Test func pathsRunInTheOrderGiven() throws {
        let fixture = try TestRunnerFixture([
            "spec/zz_init.lua": "_G.SHARED = \"ready\"\nit(\"init\", function() end)",
            "spec/uses_spec.lua": #"it("uses shared", function() assert.are.equal("ready", SHARED) end)"#,
            "z1/z_spec.lua": #"it("z", function() end)"#, "a1/a_spec.lua": #"it("a", function() end)"#,
        ])
        for jobs in Self.jobs {
            let shared = try fixture.test(["--no-auto-insulate", "spec/zz_init.lua", "spec/uses_spec.lua"] + jobs)
            #expect(shared.outcomeLines == ["ok    spec/zz_init.lua:2: init", "ok    spec/uses_spec.lua:1: uses shared"], "\(jobs): \(shared.stdout)")
            #expect(try fixture.test(["-o", "tap", "z1", "a1"] + jobs).lines.filter { $0.hasPrefix("ok") } == ["ok 1 - z", "ok 2 - a"])
        }
        try fixture.directory.write(".busted", #"return { default = { ROOT = { "z1", "a1" } } }"#)
        #expect(try fixture.test("-o", "tap").lines.filter { $0.hasPrefix("ok") } == ["ok 1 - z", "ok 2 - a"])
    }

    /// busted's Lua loader takes `.lua` files only, named ones too: `busted spec/*` passes beside
    /// fixtures and notes; a named `.txt` runs nothing (and is no "No test files" error).
    @Test func namedFilesThatAreNotLuaAreLeftOut() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("a", function() end)"#, "spec/fixture.json": #"{"key": [1,2,3]}"#,
                                             "spec/README": "some notes", "spec/e_spec.txt": #"it("e", function() end)"#])
        for jobs in Self.jobs {
            let all = try fixture.test(["spec/README", "spec/a_spec.lua", "spec/e_spec.txt", "spec/fixture.json"] + jobs)
            #expect(all.status == 0, "\(all.stdout)")
            #expect(all.lastLine == "1 passed, 0 failed")
            let text = try fixture.test(["spec/e_spec.txt"] + jobs)
            #expect(text.status == 0 && text.lastLine == "0 passed, 0 failed", "\(text.stdout)")
        }
    }

    /// busted's `--seed` only seeds: the file shuffle, each block's (--shuffle-tests), and
    /// `randomize()`, all with Lua's math.random as busted's `shuffle` uses it, so a seed gives
    /// busted's order.
    @Test func seedsGiveBustedsOrders() throws {
        var files: [String: String] = [:]
        for name in ["a", "b", "c", "d", "e"] { files["\(name)_spec.lua"] = "it('\(name)', function() end)" }
        files["r/r_spec.lua"] = """
        describe("randomized", function()
          randomize()
          for i = 1, 10 do it("r" .. i, function() end) end
        end)
        """
        let fixture = try TestRunnerFixture(files)
        func order(_ arguments: [String]) throws -> String {
            try fixture.test(["-o", "tap"] + arguments).lines.filter { $0.hasPrefix("ok") }.map { String($0.split(separator: " ").last ?? "") }.joined(separator: " ")
        }
        for jobs in Self.jobs {
            #expect(try order(["--seed", "9", "."] + jobs) == "a b c d e r1 r6 r2 r7 r5 r9 r3 r4 r10 r8")
            #expect(try order(["--shuffle-files", "--seed", "7"] + jobs + ["a_spec.lua", "b_spec.lua", "c_spec.lua", "d_spec.lua", "e_spec.lua"]) == "a e d b c")
            #expect(try order(["--shuffle-files", "--seed", "3"] + jobs + ["a_spec.lua", "b_spec.lua", "c_spec.lua", "d_spec.lua", "e_spec.lua"]) == "c d a e b")
            #expect(try order(["--seed", "9"] + jobs + ["a_spec.lua", "b_spec.lua", "c_spec.lua", "d_spec.lua", "e_spec.lua"]) == "a b c d e")
            #expect(try order(["--seed", "7", "r"] + jobs) == "r3 r7 r2 r5 r9 r1 r4 r6 r10 r8")
        }
        // .busted's seed seeds too, and shuffles nothing by itself.
        try fixture.directory.write(".busted", "return { default = { seed = 5, ROOT = { 'a_spec.lua', 'b_spec.lua', 'c_spec.lua' } } }")
        let configured = try fixture.test()
        #expect(!configured.stdout.contains("huffled") && !configured.stderr.contains("huffled"))
        #expect(configured.outcomeLines.map { String($0.split(separator: " ").last ?? "") } == ["a", "b", "c"])
    }

    /// busted has LuaFileSystem loaded before the specs, and Debian's lfs sets the global `lfs`.
    @Test func theGlobalLfsIsThere() throws {
        let fixture = try TestRunnerFixture(["b_spec.lua": #"it("global lfs", function() assert.is_string(lfs.currentdir()) end)"#])
        for jobs in Self.jobs { #expect(try fixture.test(jobs).lastLine == "1 passed, 0 failed") }
    }

    /// A C module stays loaded from one file's state to the next, as in busted's one process:
    /// lfs.so is loaded and initialised once a run (glibc's LD_DEBUG names each init). Before:
    /// once a file, each state's close unloading it (3,237 minor faults on 200 one-test files
    /// against 848).
    @Test func aCModuleIsLoadedOnceARun() throws {
        var files: [String: String] = [:]
        for n in 1...3 { files["f\(n)_spec.lua"] = #"it("uses lfs", function() assert.is_string(lfs.currentdir()) end)"# }
        let fixture = try TestRunnerFixture(files)
        let result = try Ckrun.run(["test", "."], directory: fixture.directory.url, environment: ["LD_DEBUG": "files"])
        #expect(result.stdout.hasSuffix("3 passed, 0 failed\n"), "\(result.stdout)")
        let inits = result.stderr.components(separatedBy: "\n").filter { $0.contains("calling init:") && $0.contains("/lfs.so") }
        #expect(inits.count == 1, "\(inits)")
    }

    /// In `.busted`, `shuffle` and `sort` do nothing in busted 2.1.1 (its runner reads only the
    /// -files/-tests keys its command line sets from those flags), and `list` lists. Before:
    /// ckrun sorted and shuffled by them, and ran the tests of a `list = true` task.
    @Test func bustedsShuffleAndSortKeysAreInertAndListLists() throws {
        let spec = #"it("b", function() end) it("a", function() end) it("c", function() end)"#
        let ordered = try TestRunnerFixture([".busted": "return { default = { sort = true, shuffle = true } }", "x_spec.lua": spec])
        #expect(try ordered.test().outcomeLines.map { String($0.split(separator: " ").last ?? "") } == ["b", "a", "c"])
        let listed = try TestRunnerFixture([".busted": "return { default = { list = true } }", "x_spec.lua": spec])
        #expect(try listed.test().stdout == "b\na\nc\n")
    }

    /// busted's --list names `file:line:` only for a test a Lua function registered (a describe
    /// body, a helper), not the file's main chunk (its trace.what == "Lua"). Before: ckrun named
    /// it for every test.
    @Test func listNamesThePlaceOnlyOfATestAFunctionRegistered() throws {
        let fixture = try TestRunnerFixture(["x_spec.lua": """
            local function make(n) it("made " .. n, function() end) end
            it("top", function() end)
            describe("outer", function()
              it("inner", function() end)
              pending("later")
            end)
            pending("top pending")
            make(1)
            pcall(it, "pcalled", function() end)
            """])
        let expected = "top\nx_spec.lua:4: outer inner\nx_spec.lua:5: outer later\ntop pending\nx_spec.lua:1: made 1\npcalled\n"
        #expect(try fixture.test("--list").stdout == expected)
    }

    /// Each --lpath (-m) is added, in order, as busted's cli.lua appends them. Before: only the
    /// last was kept, and a module on the first was not found.
    @Test func everyLpathIsAdded() throws {
        let fixture = try TestRunnerFixture([
            "lib/a.lua": "return 'a'", "more/b.lua": "return 'b'",
            "x_spec.lua": #"it("finds both", function() assert.are.equal("ab", require("a") .. require("b")) end)"#,
        ])
        for jobs in Self.jobs {
            #expect(try fixture.test(["--lpath=lib/?.lua", "-m", "more/?.lua"] + jobs).lastLine == "1 passed, 0 failed")
        }
    }

    /// A project module named `ck` on busted's default lpath (./src/?.lua) is what `require "ck"`
    /// returns, as under busted; the global `ck` stays the runtime (SPEC §1).
    @Test func aProjectModuleNamedCkIsRequired() throws {
        let fixture = try TestRunnerFixture([
            "src/ck.lua": #"return { name = "my ck module", add = function(a, b) return a + b end }"#,
            "spec/a_spec.lua": """
            local mine = require("ck")
            it("project module ck", function() assert.are.equal("my ck module", mine.name) end)
            it("adds", function() assert.are.equal(3, mine.add(1, 2)) end)
            it("the global is the runtime", function() assert.is_function(ck.host) end)
            """,
        ])
        for jobs in Self.jobs {
            for insulation in [[], ["--no-auto-insulate"]] {
                let result = try fixture.test(jobs + insulation)
                #expect(result.lastLine == "3 passed, 0 failed", "\(jobs) \(insulation): \(result.stdout)")
            }
        }
    }

    /// busted looks for `"#" .. tag` in the full name: a tag typed with its `#` or with blanks
    /// selects (or excludes) nothing; empty fields between commas are dropped.
    @Test func tagsAreMatchedAsTyped() throws {
        let fixture = try TestRunnerFixture(["t_spec.lua": """
        describe("blk #unit", function()
          it("inherits", function() end)
          it("own #slow", function() end)
        end)
        it("dash #tag-with-dash", function() end)
        """])
        for jobs in Self.jobs {
            #expect(try fixture.test(["-t", "#unit"] + jobs).lastLine == "0 passed, 0 failed")
            #expect(try fixture.test(["--exclude-tags=#slow"] + jobs).lastLine == "3 passed, 0 failed")
            #expect(try fixture.test(["-t", " unit"] + jobs).lastLine == "0 passed, 0 failed")
            #expect(try fixture.test(["-t", "unit,,slow"] + jobs).lastLine == "2 passed, 0 failed")
        }
    }

    /// busted's cli.lua refuses a tag in both --tags and --exclude-tags (also from `.busted`)
    /// before running anything (exit 1; ckrun's usage errors exit 64); ckrun ran nothing and
    /// passed, or ran the other tags.
    @Test func aTagBothIncludedAndExcludedIsRefused() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"describe("x #unit", function() it("fails", function() assert.is_true(false) end) end)"#])
        for arguments in [["-t", "unit", "--exclude-tags", "unit"], ["--tags=unit,slow", "--exclude-tags=slow"]] {
            let result = try fixture.test(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains("[usage] Cannot use --tags and --exclude-tags for the same tags"), "\(result.stderr)")
        }
        try fixture.directory.write(".busted", #"return { default = { ["exclude-tags"] = "unit" } }"#)
        let result = try fixture.test(["-t", "unit"])
        #expect(result.status == 64 && result.stderr.contains("Cannot use --tags and --exclude-tags"), "\(result.stderr)")
    }

    /// busted attaches a block's hooks among its children, which --shuffle-tests and --sort-tests
    /// order (block.lua; table.sort is not stable, so hooks move equal names too): the orders
    /// are busted 2.1.1's for the same files. ckrun left the hooks out and gave 1 5 4 2 3 and 1 8 7 9 ….
    static func lastWords(ofOkLines result: ProcessResult) -> String {
        result.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }
            .map { String($0.split(separator: " ").last ?? "") }.joined(separator: " ")
    }

    @Test func hooksAreOrderedWithTheTestsAsBusted() throws {
        let shuffled = try TestRunnerFixture(["spec/order_spec.lua": """
        describe("d", function()
          before_each(function() end)
          for i = 1, 5 do it(tostring(i), function() end) end
        end)
        """])
        let sorted = try TestRunnerFixture(["spec/s_spec.lua": """
        describe("d", function()
          before_each(function() end)
          for i = 1, 12 do
            describe("same", function() it(tostring(i), function() end) end)
            if i % 3 == 0 then after_each(function() end) end
          end
          setup(function() end)
        end)
        """])
        for jobs in Self.jobs {
            let shuffledOrder = Self.lastWords(ofOkLines: try shuffled.test(["--shuffle-tests", "--seed", "7", "-o", "TAP"] + jobs))
            let sortedOrder = Self.lastWords(ofOkLines: try sorted.test(["--sort-tests", "-o", "TAP"] + jobs))
            #expect(shuffledOrder == "5 3 4 1 2")
            #expect(sortedOrder == "4 10 1 11 12 3 9 7 5 8 6 2")
        }
    }

    /// A malformed --filter or --filter-out pattern: busted runs, and each block the pattern is
    /// matched in errors with string.find's "malformed pattern" (exit 1); ckrun refused the
    /// command line (64) and ran nothing.
    @Test func aMalformedFilterPatternErrorsEachBlockAsBusted() throws {
        let fixture = try TestRunnerFixture(["spec/t_spec.lua": #"describe("d", function() it("a", function() end) it("b", function() end) end)"#])
        for arguments in [["--filter", "["], ["--filter-out", "[a"]] {
            for jobs in Self.jobs {
                let result = try fixture.test(arguments + jobs)
                #expect(result.status == 1, "\(arguments) \(jobs): \(result.stderr)")
                #expect(result.stdout.contains("spec/t_spec.lua:1: \(arguments[0]) '\(arguments[1])': malformed pattern (missing ']')"), "\(arguments) \(jobs): \(result.stdout)")
            }
        }
    }

    /// A place is a file and a line of that file, as busted's trace is: a spec file's top level
    /// raising in a module it required is at the module's line (`./src/mod.lua @ 3`, not the
    /// spec file's name with the module's line), and so is a test a module's function registered.
    @Test func aPlaceInAModuleNamesTheModule() throws {
        let raising = try TestRunnerFixture([
            "src/mod.lua": "local x = 1\nlocal y = 2\nerror(\"boom in module\")\nreturn {}\n",
            "spec/a_spec.lua": "local m = require(\"mod\")\ndescribe(\"d\", function() it(\"t\", function() end) end)\n",
        ])
        for jobs in Self.jobs {
            #expect(try raising.test(["-o", "gtest"] + jobs).lines.contains("[  ERROR   ] ./src/mod.lua @ 3: suite spec/a_spec.lua"))
            #expect(try raising.test(["-o", "TAP"] + jobs).stdout.contains(#"at: "./src/mod.lua:3""#))
            #expect(try raising.test(["-o", "json"] + jobs).stdout.contains(#""short_src":".\/src\/mod.lua""#))
            #expect(try raising.test(jobs).outcomeLines == ["ERROR ./src/mod.lua:3: suite spec/a_spec.lua"])
        }
        let made = try TestRunnerFixture([
            "src/gen.lua": "local M = {}\nfunction M.make(name)\n  require(\"busted\").it(name, function() error(\"made fails\") end)\nend\nreturn M\n",
            "spec/b_spec.lua": "local gen = require(\"gen\")\ndescribe(\"d\", function()\n  gen.make(\"t\")\nend)\n",
        ])
        #expect(try made.test("-o", "gtest").lines.contains("[ RUN      ] ./src/gen.lua @ 3: d t"))
        #expect(try made.test("--list").stdout == "./src/gen.lua:3: d t\n")
    }

    /// busted places a spec file's error where it was raised, whatever level `error` was given
    /// (its getTrace: the first frame from the raiser up outside C and luassert), while the
    /// message names the level's place: `error(msg, 2)` in a module is the module's line, with
    /// "a_spec.lua:2: bad" for its message (atk-new2 04: ckrun placed it at a_spec.lua:2). Each
    /// raise below is at ./src/mod.lua @ 2 in busted 2.1.1's reports.
    @Test(arguments: ["error(\"bad\")", "error(\"bad\", 2)", "error(\"bad\", 3)", "error(\"bad\", 0)", "error({code = 7})",
                      "return x.field", "return string.rep(nil)"])
    func aFileErrorIsPlacedWhereItWasRaised(raise: String) throws {
        let line = 2
        let fixture = try TestRunnerFixture([
            "src/mod.lua": "local M = {}\nfunction M.check(x) \(raise) end\nreturn M\n",
            "spec/a_spec.lua": "local mod = require(\"mod\")\nlocal function helper() mod.check(nil) end\nhelper()\n",
        ])
        for jobs in Self.jobs {
            let tap = try fixture.test(["-o", "TAP"] + jobs).stdout
            #expect(tap.contains(#"at: "./src/mod.lua:\#(line)""#), "\(raise) \(jobs):\n\(tap)")
            #expect(try fixture.test(jobs).outcomeLines == ["ERROR ./src/mod.lua:\(line): suite spec/a_spec.lua"], "\(raise) \(jobs)")
            #expect(try fixture.test(["-o", "gtest"] + jobs).lines.contains("[  ERROR   ] ./src/mod.lua @ \(line): suite spec/a_spec.lua"))
        }
        // The message still names the level's place, as busted's does.
        let message = try fixture.test("-o", "TAP").stdout
        if raise.hasSuffix(", 2)") { #expect(message.contains("spec/a_spec.lua:2: bad"), "\(message)") }
        if raise.hasSuffix(", 3)") { #expect(message.contains("spec/a_spec.lua:3: bad"), "\(message)") }
    }

    /// busted prints the seed that shuffled a block with each failure in it ("Random seed: N",
    /// its element.randomseed): randomize() without --seed draws one, which `--seed N` replays;
    /// ckrun printed it nowhere. gtest writes it first in the failure's description.
    @Test func aShuffledBlocksFailureCarriesItsSeed() throws {
        let fixture = try TestRunnerFixture(["spec/t_spec.lua": """
        describe("d", function()
          randomize()
          for i = 1, 6 do it("t" .. i, function() assert(i ~= 3, "t3 fails") end) end
        end)
        describe("e", function() it("unshuffled", function() error("plain") end) end)
        """])
        for jobs in Self.jobs {
            let text = try fixture.test(jobs).stdout
            #expect(text.split(separator: "\n").filter { $0.contains("Random seed: ") }.count == 1, "\(text)")
            #expect(try fixture.test(["-o", "TAP"] + jobs).stdout.contains("random seed: \""))
            let gtest = try fixture.test(["--seed", "5", "-o", "gtest"] + jobs).lines
            let run = try #require(gtest.firstIndex { $0.hasSuffix(": d t3") && $0.hasPrefix("[ RUN") })
            #expect(gtest[run + 1] == "Random seed: 5")
            #expect(!gtest.contains { $0.hasPrefix("Random seed") && $0 != "Random seed: 5" })
        }
        let shuffled = try fixture.test("--shuffle", "--seed", "3", "-o", "gtest").lines
        #expect(shuffled.filter { $0 == "Random seed: 3" }.count == 2, "\(shuffled)")
    }

    /// busted's `-o junit -Xoutput FILE` (and `.busted`'s `Xoutput`) writes the report to FILE
    /// and nothing to standard output; `-o busted.outputHandlers.json` is the JSON handler.
    @Test func junitXoutputWritesTheFile() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("a", function() end)"#])
        for jobs in Self.jobs {
            let result = try fixture.test(["-o", "junit", "-Xoutput", "report.xml"] + jobs)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)")
            #expect(try fixture.read("report.xml").contains("<testsuites"))
        }
        try fixture.directory.write(".busted", #"return { default = { output = "junit", Xoutput = "cfg.xml" } }"#)
        #expect(try fixture.test().stdout.isEmpty)
        #expect(try fixture.read("cfg.xml").contains("<testcase"))
        try fixture.directory.write(".busted", "return {}")
        #expect(try fixture.test("-o", "busted.outputHandlers.json").stdout.hasPrefix("{"))
    }

    /// lua5.4 runs LUA_INIT_5_4 (or LUA_INIT) before busted's script: what it sets is there for every spec.
    @Test(arguments: [("LUA_INIT", "INIT_X = 1"), ("LUA_INIT_5_4", "INIT_X = 1"), ("LUA_INIT", "@init.lua")])
    func luaInitRunsFirst(variable: String, value: String) throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("LUA_INIT ran", function() assert.are.equal(1, INIT_X) end)"#,
                                             "init.lua": "INIT_X = 1"])
        for jobs in Self.jobs {
            let result = try Ckrun.run(["test"] + jobs + ["a_spec.lua"], directory: fixture.directory.url, environment: [variable: value])
            #expect(result.lastLine == "1 passed, 0 failed", "\(variable)=\(value) \(jobs): \(result.stdout)")
        }
    }

    /// A `--helper` file that cannot be read stops the run before any test, as busted's does,
    /// with busted's words, a `[cannotRead]` id and no line of ckrun's own.
    @Test func aMissingHelperStopsTheRun() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("hv", function() end)"#, "b_spec.lua": #"it("hw", function() end)"#])
        for jobs in Self.jobs {
            let result = try fixture.test(["--helper", "nosuch.lua"] + jobs)
            #expect(result.status == 1)
            #expect(result.stdout.contains("[cannotRead] failed running the specified helper (nosuch.lua), error: cannot read nosuch.lua: No such file or directory"),
                    "\(result.stdout)")
            #expect(!result.stdout.contains("(ckrun test"))
            #expect(result.lastLine == "0 passed, 1 failed")
        }
    }

    /// busted 2.1.1's `--lang` leaves luassert's messages in English (it loads only
    /// `busted.languages.LANG`, for its handlers' labels).
    @Test func langLeavesLuassertsMessagesEnglish() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("fails", function() assert.are.equal(1, 2) end)"#])
        for jobs in Self.jobs {
            let result = try fixture.test(["--lang", "de", "-o", "json"] + jobs)
            #expect(result.stdout.contains("a_spec.lua:1: Expected objects to be equal."), "\(result.stdout)")
        }
    }

    /// Hooks a `--helper` registers through `require("busted")` wrap every file's tests, as busted
    /// registers them at its root suite.
    @Test func helperHooksWrapEveryFilesTests() throws {
        let fixture = try TestRunnerFixture([
            "helper.lua": """
            local busted = require("busted")
            busted.before_each(function() _G.BE_COUNT = (_G.BE_COUNT or 0) + 1 end)
            """,
            "spec/a_spec.lua": "it(\"a1\", function() assert.are.equal(1, BE_COUNT) end)\nit(\"a2\", function() assert.are.equal(2, BE_COUNT) end)",
            "spec/b_spec.lua": #"it("b1", function() assert.is_number(BE_COUNT) end)"#,
        ])
        for jobs in Self.jobs {
            for insulation in [[], ["--no-auto-insulate"]] {
                let result = try fixture.test(["--helper", "helper.lua"] + jobs + insulation)
                #expect(result.lastLine == "3 passed, 0 failed", "\(jobs) \(insulation): \(result.stdout)")
            }
        }
    }

    /// busted publishes `{status, descriptor}` (`failure.it`, `error.it`, `error.before_each`) with
    /// the element, its parent and the message; the log below is busted 2.1.1's.
    @Test func failureAndErrorEventsArePublished() throws {
        let fixture = try TestRunnerFixture([
            "helper.lua": """
            local busted = require("busted")
            for _, ch in ipairs({{"failure","it"},{"error","it"},{"error","before_each"}}) do
              busted.subscribe(ch, function(element, parent, message)
                io.stderr:write("event ", table.concat(ch, "."), " ", tostring(element.name), " ", tostring(parent.name), " ", message, "\\n")
                return nil, true
              end)
            end
            """,
            "spec/a_spec.lua": """
            describe("d", function()
              it("fails", function() assert.is_true(false) end)
              it("errs", function() error("x") end)
              describe("hookfail", function()
                before_each(function() error("be") end)
                it("never", function() end)
              end)
            end)
            """,
        ])
        for jobs in Self.jobs {
            let result = try fixture.test(["--helper", "helper.lua"] + jobs)
            let events = result.stderr.split(separator: "\n").filter { $0.hasPrefix("event ") }.map(String.init)
            #expect(events.count == 3, "\(result.stderr)")
            #expect(events.first?.hasPrefix("event failure.it fails d spec/a_spec.lua:2: Expected objects to be the same.") == true, "\(events)")
            #expect(events.dropFirst().first == "event error.it errs d spec/a_spec.lua:3: x", "\(events)")
            #expect(events.last == "event error.before_each nil hookfail spec/a_spec.lua:5: be", "\(events)")
        }
    }

    /// busted's --coverage is LuaCov's, which adds to an existing `luacov.stats.out`.
    @Test func coverageAddsToTheStatsFile() throws {
        let fixture = try TestRunnerFixture([
            "src/calc.lua": "local M = {}\nfunction M.add(a, b)\n  return a + b\nend\nreturn M\n",
            "spec/calc_spec.lua": "local calc = require(\"calc\")\nit(\"adds\", function() assert.are.equal(3, calc.add(1, 2)) end)\n",
        ])
        #expect(try fixture.test("--coverage").status == 0)
        #expect(try fixture.read("luacov.stats.out") == "5:src/calc.lua\n1 1 1 1 1 \n")
        #expect(try fixture.test("--coverage", "--jobs", "2").status == 0)
        #expect(try fixture.read("luacov.stats.out") == "5:src/calc.lua\n2 2 2 2 2 \n")
    }

    /// A subscriber reads busted's `element.trace` (where the test was registered): the test's
    /// end event carries it, so nothing fails twice (busted 2.1.1: 2 successes).
    @Test func announcedElementsCarryTheirTrace() throws {
        let fixture = try TestRunnerFixture([
            "helper3.lua": """
            local busted = require("busted")
            busted.subscribe({"test","end"}, function(element, parent, status)
              _G.LAST = element.trace.short_src .. ":" .. element.trace.currentline
              return nil, true
            end)
            """,
            "spec/b_spec.lua": #"it("x", function() end) it("y", function() assert.are.equal("spec/b_spec.lua:1", LAST) end)"#,
        ])
        for jobs in Self.jobs {
            #expect(try fixture.test(["--helper", "helper3.lua", "spec/b_spec.lua"] + jobs).lastLine == "2 passed, 0 failed")
        }
    }

    /// busted compiles every file before any test: under --no-keep-going a file that does not
    /// compile stops the run before the first test (busted 2.1.1: 0 successes, 1 error).
    @Test func aCompileErrorStopsANoKeepGoingRunFirst() throws {
        let fixture = try TestRunnerFixture([
            "spec/a_spec.lua": #"it("a1", function() end) it("a2", function() end)"#,
            "spec/b_spec.lua": #"it("b" function() end)"#,
            "spec/c_spec.lua": #"it("c1", function() end)"#,
        ])
        for jobs in Self.jobs {
            let result = try fixture.test(["--no-keep-going"] + jobs)
            #expect(result.status == 1)
            #expect(result.outcomeLines == ["ERROR spec/b_spec.lua:1: spec/b_spec.lua"], "\(jobs): \(result.stdout)")
        }
        #expect(try fixture.test().lastLine == "3 passed, 1 failed")
    }

    /// A directory under the test path that cannot be read is a `[cannotRead]` error of the run
    /// (busted 2.1.1 stops with Penlight's "cannot open spec/locked: Permission denied", exit 1):
    /// its tests were skipped and the run passed. As root (who reads any directory) the run is
    /// made as `nobody` through runuser.
    @Test func anUnreadableDirectoryFailsTheRun() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("a", function() end)"#,
                                             "spec/locked/l_spec.lua": #"it("l", function() end)"#])
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.directory.url.path)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.directory.url.appendingPathComponent("spec").path)
        try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: fixture.directory.url.appendingPathComponent("spec/locked").path)
        defer { try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fixture.directory.url.appendingPathComponent("spec/locked").path) }
        let asRoot = getuid() == 0
        if asRoot && !manager.isExecutableFile(atPath: "/usr/sbin/runuser") { return }
        for jobs in Self.jobs {
            let arguments = ["test"] + jobs
            let result = asRoot
                ? try Ckrun.runProcess(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "nobody", "--", Ckrun.executableURL.path] + arguments,
                                       directory: fixture.directory.url)
                : try Ckrun.run(arguments, directory: fixture.directory.url)
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("[cannotRead] cannot open spec/locked: Permission denied"), "\(result.stdout)")
            #expect(result.lastLine == "1 passed, 1 failed")
        }
    }

    /// `--sort-files` (and `--sort`) sorts the whole list by path, and wins over a shuffle, as in
    /// busted's execute.lua; without it the order given stands.
    @Test func sortFilesSortsTheWholeList() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": "it('a', function() end)", "b_spec.lua": "it('b', function() end)",
                                             "c_spec.lua": "it('c', function() end)"])
        func order(_ arguments: [String]) throws -> [String] {
            try fixture.test(arguments).outcomeLines.map { String($0.split(separator: " ").last ?? "") }
        }
        for jobs in Self.jobs {
            #expect(try order(jobs + ["c_spec.lua", "a_spec.lua", "b_spec.lua"]) == ["c", "a", "b"])
            #expect(try order(jobs + ["--sort-files", "c_spec.lua", "a_spec.lua", "b_spec.lua"]) == ["a", "b", "c"])
            #expect(try order(jobs + ["--sort", "--shuffle-files", "--seed", "3", "c_spec.lua", "a_spec.lua", "b_spec.lua"]) == ["a", "b", "c"])
        }
    }

    /// `-C ''` stays where it is, as busted's path.join of "" does; a directory that cannot be
    /// entered is named, quoted, with the reason (before: `-C ''` was a usage error reading
    /// "cannot change to; see ...", and no reason was given).
    @Test func anEmptyDirectoryOptionStaysAndAMissingOneSaysWhy() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("t", function() end)"#])
        let stay = try fixture.test("-C", "")
        #expect(stay.status == 0 && stay.lastLine == "1 passed, 0 failed", "\(stay.stdout)\(stay.stderr)")
        let missing = try fixture.test("-C", "nosuch")
        #expect(missing.status == 64 && missing.stderr.contains("cannot change to 'nosuch': No such file or directory"), "\(missing.stderr)")
    }

    /// busted's --repeat N with -o json or TAP reports each run on its own: N JSON documents,
    /// N TAP streams each with its plan (before: one merged document, one plan `1..N*k`).
    @Test func repeatWritesADocumentPerRunForJSONAndTAP() throws {
        let fixture = try TestRunnerFixture(["s_spec.lua": #"it("b", function() end) it("b2", function() error("e") end)"#])
        let tap = try fixture.test("-o", "TAP", "--repeat", "2", "s_spec.lua")
        #expect(tap.lines.filter { $0.hasPrefix("1..") } == ["1..2", "1..2"], "\(tap.stdout)")
        let json = try fixture.test("-o", "json", "--repeat", "3", "s_spec.lua")
        #expect(json.stdout.components(separatedBy: "\"successes\"").count == 4, "\(json.stdout)")
        #expect(json.stderr.contains("3 passed, 3 failed"), "\(json.stderr)")
    }
}
