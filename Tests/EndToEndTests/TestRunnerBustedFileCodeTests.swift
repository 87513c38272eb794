import CKTestHelpers
import Foundation
import Testing

/// `.busted` is Lua that busted runs in the state its specs share (its cli.lua: loadfile, then
/// the call, before the paths, `-e` and the helper): what its top level does reaches the tests,
/// it sees busted's `lfs` and `arg`, and its `directory` is busted's `-C` (atk-busted5 01, 12, 04).
@Suite("ckrun test: .busted's code, environment and directory")
struct TestRunnerBustedFileCodeTests {
    static let jobs: [[String]] = [[], ["--jobs", "2"], ["--no-auto-insulate"]]

    /// BlueLua/mods' idiom: globals, an assertion registered with its `say` messages, a path.
    @Test func whatTheConfigurationsTopLevelDoesReachesEveryFile() throws {
        let fixture = try TestRunnerFixture([
            ".busted": """
            local assert = require "luassert"
            local say = require "say"
            say:set("assertion.callable.positive", "Expected object to be callable:\\n%s")
            say:set("assertion.callable.negative", "Expected object to not be callable:\\n%s")
            assert:register("assertion", "callable", function(_, args) return type(args[1]) == "function" end,
              "assertion.callable.positive", "assertion.callable.negative")
            rawset(_G, "each", function(t) return ipairs(t) end)
            _TEST = true
            package.path = "./lib/?.lua;" .. package.path
            return { _all = { ROOT = { "spec" } } }
            """,
            "lib/mymod.lua": "return { v = 42 }",
            "spec/a_spec.lua": """
            describe("uses what .busted set up", function()
              it("sees _TEST", function() assert.is_true(_TEST) end)
              it("sees each", function() for _, v in each({1}) do assert.equal(1, v) end end)
              it("sees the registered assertion", function() assert.is_callable(print) end)
              it("requires from the path it set", function() assert.equal(42, require("mymod").v) end)
            end)
            """,
            "spec/b_spec.lua": #"it("a second file sees them too", function() assert.is_true(_TEST); assert.is_not_callable(1) end)"#,
        ])
        for jobs in Self.jobs {
            let result = try fixture.test(jobs)
            #expect(result.status == 0 && result.lastLine == "5 passed, 0 failed", "\(jobs): \(result.stdout)\(result.stderr)")
        }
    }

    /// busted has loaded LuaFileSystem (Debian's sets the global `lfs`) and its command line is `arg`.
    @Test func theConfigurationSeesLfsAndTheCommandLine() throws {
        // Where lua-filesystem is not installed there is no lfs to see (`arg` is still checked).
        let root = ReplTests.hasLFS ? #"lfs.currentdir() .. "/spec""# : #""spec""#
        let fixture = try TestRunnerFixture([
            "spec/t_spec.lua": #"it("t", function() end)"#,
            ".busted": """
            local tap = false
            for _, a in ipairs(arg) do if a == "TAP" then tap = true end end
            return { default = { ROOT = { tap and \(root) or "missing-dir" } } }
            """,
        ])
        let result = try fixture.test("-o", "TAP")
        #expect(result.status == 0 && result.lines.contains("ok 1 - t"), "\(result.stdout)\(result.stderr)")
    }

    /// `directory` in a task is busted's `-C`: the run goes there after reading `.busted`.
    @Test func theConfigurationsDirectoryIsWhereTheRunGoes() throws {
        let fixture = try TestRunnerFixture([
            ".busted": #"return { _all = { directory = "lua/LUA" } }"#,
            "lua/LUA/src/m.lua": "return 7",
            "lua/LUA/spec/m_spec.lua": #"it("finds its module from there", function() assert.equal(7, require("m")) end)"#,
        ])
        for jobs in Self.jobs {
            let result = try fixture.test(jobs)
            #expect(result.status == 0 && result.lastLine == "1 passed, 0 failed", "\(jobs): \(result.stdout)\(result.stderr)")
        }
        // -C on the command line wins, as busted's command line does.
        let given = try fixture.test("-C", ".")
        #expect(given.status == 1 && (given.stdout + given.stderr).contains("Cannot find file or directory: spec"), "\(given.stdout)\(given.stderr)")
    }
}
