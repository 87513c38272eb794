import CKTestHelpers
import Testing

@Suite("ckrun test: running files, outcomes and exit status")
struct TestRunnerBasicsTests {
    @Test func passingFilesExitZeroWithTheSummaryLast() throws {
        let fixture = try TestRunnerFixture(["strings_spec.lua": Fixtures.passing])
        let result = try fixture.test()
        #expect(result.status == 0)
        #expect(result.lastLine == "2 passed, 0 failed")
        #expect(result.outcomeLines == [
            "ok    strings_spec.lua:2: strings concatenates",
            "ok    strings_spec.lua:3: strings repeats",
        ])
    }

    @Test func failuresErrorsAndPendingTestsAreToldApart() throws {
        let fixture = try TestRunnerFixture(["math_spec.lua": Fixtures.mixed])
        let result = try fixture.test("math_spec.lua")
        #expect(result.status == 1)
        #expect(result.lastLine == "2 passed, 2 failed, 1 skipped")
        #expect(result.outcomeLines == [
            "ok    math_spec.lua:2: math adds",
            "ok    math_spec.lua:3: math multiplies",
            "FAIL  math_spec.lua:4: math subtracts",
            "ERROR math_spec.lua:5: math divides",
            "SKIP  math_spec.lua:6: math rounds",
        ])
        // The failure says expected versus actual; the error keeps Lua's message; both have a traceback.
        #expect(result.stdout.contains("math_spec.lua:4: Expected objects to be equal.\n   Passed in:\n   (number) 2\n   Expected:\n   (number) 1"))
        #expect(result.stdout.contains("attempt to index a nil value (local 't')"))
        #expect(result.stdout.contains("stack traceback:\n   \tmath_spec.lua:5:"))
    }

    /// busted's selection with or without paths (issue 25): names matching `_spec` anywhere
    /// (`parser_specs.lua`), `_test.lua` while no pattern is configured, `test_*.lua` never.
    @Test func findsTestFilesByNameInDirectoriesInSortedOrder() throws {
        let fixture = try TestRunnerFixture([
            "spec/b_spec.lua": #"it("b", function() end)"#,
            "spec/a_test.lua": #"it("a", function() end)"#,
            "spec/deep/parser_specs.lua": #"it("c", function() end)"#,
            "spec/deep/test_helper.lua": #"it("a helper", function() error("must not run") end)"#,
            "spec/helper.lua": #"it("not a test file", function() error("must not run") end)"#,
            ".hidden/x_spec.lua": #"it("hidden", function() error("must not run") end)"#,
        ])
        let expected = ["ok    spec/a_test.lua:1: a", "ok    spec/b_spec.lua:1: b", "ok    spec/deep/parser_specs.lua:1: c"]
        let result = try fixture.test(".")
        #expect(result.status == 0)
        #expect(result.outcomeLines == expected)
        #expect(result.lastLine == "3 passed, 0 failed")
        // Without paths, spec/ when it exists, with the same rules.
        #expect(try fixture.test().outcomeLines == expected)
        #expect(try fixture.test("spec").outcomeLines == expected)
        // A configured pattern replaces both conventions.
        #expect(try fixture.test("-p", "_spec", "spec").outcomeLines == Array(expected.dropFirst()))
    }

    @Test func aFileThatDoesNotLoadIsOneErroredTestNamedAfterIt() throws {
        let fixture = try TestRunnerFixture([
            "broken_spec.lua": "describe(\"x\", function()\n  it(\"y\" (\nend)",
            "ok_spec.lua": #"it("works", function() end)"#,
        ])
        let result = try fixture.test()
        #expect(result.status == 1)
        #expect(result.outcomeLines == ["ERROR broken_spec.lua:2: broken_spec.lua", "ok    ok_spec.lua:1: works"])
        // busted 2.1.1's message for it: Lua's own, `FILE:LINE: ...` (docs/errors.md [syntaxError]).
        #expect(result.stdout.contains("\n   broken_spec.lua:2: ')' expected near '('\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("failed to load"))
        #expect(result.lastLine == "1 passed, 1 failed")
    }

    @Test func hooksRunInBustedsOrderAndAFailingBeforeEachErrorsItsTest() throws {
        let fixture = try TestRunnerFixture(["hooks_spec.lua": """
        local log = {}
        describe("outer", function()
          setup(function() table.insert(log, "setup") end)
          teardown(function() table.insert(log, "teardown"); print("log: " .. table.concat(log, " ")) end)
          before_each(function() table.insert(log, "before-outer") end)
          after_each(function() table.insert(log, "after-outer") end)
          describe("inner", function()
            before_each(function() table.insert(log, "before-inner") end)
            after_each(function() table.insert(log, "after-inner") end)
            it("runs", function() table.insert(log, "test") end)
          end)
        end)
        describe("broken", function()
          before_each(function() error("the hook broke") end)
          it("never runs its body", function() print("body ran") end)
        end)
        """])
        let result = try fixture.test()
        #expect(result.stdout.contains("log: setup before-outer before-inner test after-inner after-outer teardown"))
        // As busted: a failing before_each is an error of the hook; the test does not run.
        #expect(result.outcomeLines == ["ok    hooks_spec.lua:10: outer inner runs", "ERROR hooks_spec.lua:14: broken before_each"])
        #expect(result.stdout.contains("hooks_spec.lua:14: the hook broke"))
        #expect(!result.stdout.contains("body ran"))
        #expect(result.status == 1)
    }

    @Test func usageErrorsExitWith64() throws {
        let fixture = try TestRunnerFixture(["strings_spec.lua": Fixtures.passing])
        for arguments in [["--bogus"], ["--shard", "0/2"], ["--shard", "3/2"], ["--shard", "x"],
                          ["--jobs", "0"], ["--timeout", "0"]] {
            let result = try fixture.test(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(!result.stderr.isEmpty, "\(arguments)")
        }
    }

    /// busted runs the paths that exist and fails the run with an error for each that does not
    /// ("Cannot find file or directory"). Before: a usage error (64) and no test ran.
    @Test func aMissingPathIsAnErrorOfTheRunAndTheOthersRun() throws {
        let fixture = try TestRunnerFixture(["strings_spec.lua": Fixtures.passing])
        let result = try fixture.test("strings_spec.lua", "no_such_dir")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[cannotRead] Cannot find file or directory: no_such_dir"), "\(result.stdout)")
        #expect(result.lastLine == "2 passed, 1 failed", "\(result.stdout)")
        #expect(!result.stdout.contains("No test files found"), "\(result.stdout)")
        let alone = try fixture.test("no_such_dir")
        #expect(alone.status == 1)
        #expect(alone.stdout.contains("No test files found"), "\(alone.stdout)")
    }

    @Test func printedOutputIsCapturedAndShownWithAFailure() throws {
        let fixture = try TestRunnerFixture(["out_spec.lua": """
        it("quiet", function() print("from the passing test") end)
        it("loud", function() io.write("from the failing test\\n"); assert.is_true(false) end)
        """])
        let result = try fixture.test()
        #expect(!result.stdout.contains("from the passing test"))
        #expect(result.stdout.contains("output:\n     from the failing test"))
        #expect(result.lastLine == "1 passed, 1 failed")
    }

    /// `ckrun test …` is parsed by the test command alone first (fewer instructions before
    /// `--jobs` forks); what only the whole command line knows is still answered as before:
    /// the version, help naming `ckrun test`, completion scripts, usage errors.
    @Test func theTestCommandLineKeepsWhatTheWholeCommandKnows() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("a", function() end)"#])
        let version = try fixture.test("--version", "a_spec.lua")
        #expect(version.status == 0 && version.stdout.hasPrefix("ckrun "), "\(version.stdout)\(version.stderr)")
        let help = try fixture.test("--help")
        #expect(help.status == 0 && help.stdout.contains("USAGE: ckrun test"), "\(help.stdout)\(help.stderr)")
        let completion = try fixture.test("--generate-completion-script", "bash")
        #expect(completion.status == 0 && completion.stdout.contains("_ckrun"), "\(completion.stderr)")
        let bad = try fixture.test("--jobs", "0", "a_spec.lua")
        #expect(bad.status == 64 && bad.stderr.contains("see 'ckrun test --help'"), "\(bad.stderr)")
        let runs = try fixture.test("--jobs", "2", "a_spec.lua")
        #expect(runs.status == 0 && runs.lastLine == "1 passed, 0 failed")
    }

    /// `--jobs` runs its files at once in one working directory: where it is described (the
    /// help, docs/testing.md), it says that files sharing a scratch path can collide.
    @Test func jobsSaysItsFilesShareTheWorkingDirectory() throws {
        let fixture = try TestRunnerFixture([:])
        let help = try fixture.test("--help")
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("all in one working directory: files that write the same scratch path can collide"), "\(help.stdout)")
        let docs = try String(contentsOf: Ckrun.packageRoot.appendingPathComponent("docs/testing.md"), encoding: .utf8)
        #expect(docs.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .contains("The workers all run in the one working directory and share the file system"))
    }
}
