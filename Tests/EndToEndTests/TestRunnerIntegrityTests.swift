import CKTestHelpers
import Foundation
import Testing

/// Issue 24: the runner's integrity against the code it runs and judges. Each test failed on
/// the runner before (see the commit that added it).
@Suite("ckrun test: .busted and --pattern under limits, the runner out of the tests' reach")
struct TestRunnerIntegrityTests {
    /// Class 1: `.busted` is the checkout's code. Under --sandbox it may not run programs; under
    /// --timeout and --memory-limit its loop and its memory are stopped.
    @Test(arguments: [
        ("os.execute('touch pwned')", "--sandbox", "[sandbox]"),
        ("while true do end", "--timeout=0.5", "[timeout]"),
        ("local t = {} for i = 1, 3e7 do t[i] = i end", "--memory-limit=20", "[memoryLimit]"),
    ])
    func bustedConfigRunsUnderTheLimits(code: String, option: String, id: String) throws {
        let fixture = try TestRunnerFixture([".busted": code + "\nreturn {}", "a_spec.lua": #"it("a", function() end)"#])
        let result = try Ckrun.run(["test", option], directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(".busted: \(id)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.url.appendingPathComponent("pwned").path))
    }

    /// A `.busted` value holding a line break, a tab or the old separator cannot become a key.
    @Test func aBustedValueCannotForgeAnOption() throws {
        let fixture = try TestRunnerFixture([
            ".busted": #"return { default = { pattern = "_spec\nhelper\tevil.lua", tags = { "a\31b" } } }"#,
            "a_spec.lua": #"it("a", function() end)"#,
            "evil.lua": #"error("the helper ran")"#,
        ])
        let result = try fixture.test("--list")
        // The pattern is one value that matches no file: busted's "No test files found" (exit 1).
        #expect(result.status == 1, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("No test files found matching Lua pattern"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("the helper ran") && !result.stderr.contains("the helper ran"), "\(result.stdout)\(result.stderr)")
    }

    /// Lua's matcher backtracks: `a?`×40 `a`×40 against 40 a's takes 2^40 steps. The file
    /// pattern is matched in linear time, and as string.find would.
    @Test func aBacktrackingFilePatternAnswersAtOnce() throws {
        let name = String(repeating: "a", count: 40)
        // In a describe: --list names a test's file only for one a function registered.
        let fixture = try TestRunnerFixture(["\(name)_x.lua": #"describe("d", function() it("found", function() end) end)"#,
                                             "b_x.lua": #"describe("d", function() it("not", function() end) end)"#])
        let pattern = String(repeating: "a?", count: 40) + name
        let result = try Ckrun.run(["test", "--list", "-p", pattern, "."], directory: fixture.directory.url, timeout: 30)
        #expect(result.lines == ["\(name)_x.lua:1: d found"], "\(result.stdout)\(result.stderr)")
        for (pattern, expected) in [("^a+_x%.lua$", [name]), ("%f[%w]b", ["b"]), ("[^a]_", ["b"]), ("%b()", [String]()), ("_x", [name, "b"])] {
            let listed = try Ckrun.run(["test", "--list", "-p", pattern, "."], directory: fixture.directory.url).lines
            #expect(listed.map { String($0.prefix { $0 != "_" }) } == expected, "\(pattern): \(listed)")
        }
        #expect(try fixture.test("--list", "-p", "(%w)%1").status == 64)
    }

    /// Class 2: the runner's table is no global: a test that rewrites what it finds there cannot
    /// turn a failing suite green, in one process, in workers, under --sandbox.
    @Test(arguments: [[String](), ["--sandbox"], ["--jobs", "2"], ["--sandbox", "--jobs", "2"]])
    func aTestCannotRewriteTheResults(options: [String]) throws {
        let tamper = #"""
        describe("suite", function()
          it("fails", function() assert.are.equal(1, 2) end)
          it("tampers", function()
            local T = rawget(_G, "(ckrun test)") or {}
            for _, r in ipairs(T.results or {}) do r.status, r.message = "passed", nil end
            T.encode_results = function() return "" end
            for k in pairs(T) do T[k] = nil end
            -- Without --sandbox the runner's table is found through the registry: it holds no settings.
            for _, v in pairs(debug.getregistry and debug.getregistry() or {}) do
              if type(v) == "table" and rawget(v, "run_file") then
                if v.opts then v.opts.list, v.opts.filters[1] = true, "nothing" end
                if v.set then v.set("list", "true") end
              end
            end
            string.find, string.gsub = nil, nil
            getmetatable("").__index = function() error("hijacked") end
          end)
          it("fails after", function() error("still reported") end)
        end)
        """#
        let fixture = try TestRunnerFixture(["tamper_spec.lua": tamper, "other_spec.lua": #"it("passes", function() end)"#])
        let result = try fixture.test(options)
        #expect(result.status == 1)
        #expect(result.outcomeLines.filter { !$0.hasPrefix("ok    other") } == [
            "FAIL  tamper_spec.lua:2: suite fails", "ok    tamper_spec.lua:3: suite tampers", "ERROR tamper_spec.lua:18: suite fails after",
        ], "\(result.stdout)")
        #expect(result.stdout.contains("tamper_spec.lua:18: still reported"))
        #expect(result.lastLine == "2 passed, 2 failed")
    }

    /// A test that leaves its state at the memory limit: the file's results stay its own (they
    /// were replaced by one "failed to load"), and the next test runs.
    @Test(arguments: [[String](), ["--jobs", "2"], ["--sandbox"]])
    func aTestAtTheMemoryLimitKeepsTheFilesResults(options: [String]) throws {
        let fill = #"""
        it("passes", function() end)
        it("fails", function() assert.is_true(false) end)
        it("fills memory", function()
          for _, size in ipairs({ 1e6, 65536, 4096, 256, 16, 0 }) do
            pcall(function() while true do hold = { hold, ("x"):rep(size) } end end)
          end
          pcall(function() while true do hold = { hold } end end)
        end)
        it("passes after", function() end)
        """#
        let fixture = try TestRunnerFixture(["fill_spec.lua": fill, "other_spec.lua": #"it("passes", function() end)"#])
        let result = try fixture.test(options + ["--memory-limit", "32", "fill_spec.lua", "other_spec.lua"])
        #expect(result.outcomeLines == [
            "ok    fill_spec.lua:1: passes", "FAIL  fill_spec.lua:2: fails", "ok    fill_spec.lua:3: fills memory",
            "ok    fill_spec.lua:9: passes after", "ok    other_spec.lua:1: passes",
        ], "\(result.stdout)")
        #expect(!result.stdout.contains("failed to load"))
    }

    /// Class 10: Lua calls no message handler for a memory error: it arrived with no message.
    @Test func aMemoryErrorInATestArrivesWithItsMessage() throws {
        let fixture = try TestRunnerFixture(["oom_spec.lua": """
        it("grows a table", function() local t = {} for i = 1, 1e8 do t[i] = i end end)
        it("grows a string", function() local s = "x" for _ = 1, 40 do s = s .. s end end)
        """])
        let result = try fixture.test("--memory-limit", "16", "-o", "json")
        let errors = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])["errors"] as? [[String: Any]]
        #expect(errors?.count == 2)
        for error in errors ?? [] {
            let message = error["message"] as? String ?? ""
            // The test's line where the limit struck (Lua runs no message handler for it).
            #expect(message.hasPrefix("[memoryLimit] oom_spec.lua:") && message.contains(": the test used more than its memory limit (16 MB)"), "\(message)")
        }
    }

    /// Class 3: a finalizer that never returns, called by the collector in the runner's own code
    /// between tests, hung `ckrun test --sandbox --timeout 1` and its workers: it now ends the
    /// process (a worker's file fails) with [timeout].
    @Test(arguments: [["gc_spec.lua"], ["--jobs", "2", "gc_spec.lua", "ok_spec.lua"]])
    func aFinalizerBetweenTestsIsUnderTheTimeLimit(arguments: [String]) throws {
        let fixture = try TestRunnerFixture(["gc_spec.lua": Self.finalizerInTheRunner, "ok_spec.lua": #"it("passes", function() end)"#])
        let result = try Ckrun.run(["test", "--sandbox", "--timeout", "1"] + arguments, directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 1)
        // Where it struck: the finalizer's line (terminal attack, break 04: no place was named).
        #expect(result.stderr.contains("[timeout] gc_spec.lua:9: a C function, a finalizer (__gc) or a debug hook ran past the time limit"), "\(result.stderr)")
        if arguments.count > 1 {
            #expect(result.stdout.contains("gc_spec.lua: [timeout] gc_spec.lua:9: a C function, a finalizer"), "\(result.stdout)")
            #expect(result.stdout.contains("(its worker process ended with status 1"), "\(result.stdout)")
            #expect(result.outcomeLines.contains("ok    ok_spec.lua:1: passes"))
        }
    }

    /// Finalizers that loop forever when the collector calls them from the runner's code (the
    /// first Lua frame below them is a runner chunk); failing tests make the runner allocate.
    static let finalizerInTheRunner = #"""
    local function caller_source()
      for level = 3, 40 do
        local info = debug.getinfo(level, "S")
        if not info then return "" end
        if info.what ~= "C" then return info.source end
      end
      return ""
    end
    local mt = { __gc = function() if caller_source():find("^=%(ckrun test") then while true do end end end }
    it("arms", function() local keep = {} for i = 1, 20000 do keep[i] = setmetatable({}, mt) end end)
    for i = 1, 3000 do it("fails " .. i, function() error("on purpose") end) end
    """#

    /// Class 8: a test file reaches Lua as its bytes: a Latin-1 literal is one byte, as under lua5.4.
    @Test func aTestFileIsHandedToLuaAsBytes() throws {
        let fixture = try TestRunnerFixture([:])
        // `é` as the one byte 0xE9 (Latin-1), in both string literals.
        let parts = [#"it("latin-1", function() assert.are.equal(1, #""#, #"") assert.are.equal(233, (""#, #""):byte()) end)"#]
        let bytes = Data(parts.map { Array($0.utf8) }.joined(separator: [0xE9]))
        try bytes.write(to: fixture.directory.url.appendingPathComponent("latin1_spec.lua"))
        let result = try fixture.test()
        #expect(result.lastLine == "1 passed, 0 failed", "\(result.stdout)")
    }

    /// os.exit from a finalizer that runs as the file's state closes, after its tests, fails
    /// the file, serially and under --jobs (atk-new 17: the run passed, status 0).
    @Test func osExitInAFinalizerAsTheStateClosesFailsTheFile() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("a", function() end) G = setmetatable({}, {__gc = function() os.exit(7) end})"#,
            "b_spec.lua": #"it("b", function() end)"#,
        ])
        for jobs in ["1", "2"] {
            let result = try Ckrun.run(["test", "--jobs", jobs, "a_spec.lua", "b_spec.lua"], directory: fixture.directory.url, timeout: 30)
            #expect(result.status == 7, "\(jobs): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("[testFailure] a_spec.lua:1: os.exit(7) was called"), "\(jobs): \(result.stdout)")
            #expect(result.stdout.contains("as the file's state closed"), "\(jobs): \(result.stdout)")
            #expect(result.stdout.contains("2 passed, 1 failed"), "\(jobs): \(result.stdout)")
        }
    }

    /// os.exit from a finalizer the test's collection runs fails the test as one in its body does
    /// (atk-new 17: Lua turned the guard's error into a warning, and the test passed, status 0).
    @Test func osExitInAFinalizerFailsTheTest() throws {
        let fixture = try TestRunnerFixture([
            "d_spec.lua": #"it("d", function() setmetatable({}, {__gc = function() os.exit(7) end}); collectgarbage() end)"#,
        ])
        for jobs in ["1", "2"] {
            let result = try Ckrun.run(["test", "--jobs", jobs, "d_spec.lua"], directory: fixture.directory.url, timeout: 30)
            #expect(result.status == 7, "\(jobs): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("[testFailure] d_spec.lua:1: os.exit(7) was called"), "\(jobs): \(result.stdout)")
        }
    }
}
