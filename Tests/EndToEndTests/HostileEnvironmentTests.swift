import CKTestHelpers
import Foundation
import Testing

/// Apps, test files and the REPL under a strict `_G` and with memory at the limit: nothing may
/// crash, abort ("unprotected Lua error") or leave the memory limit off afterwards.
@Suite("Hostile environments: strict globals, memory at the limit")
struct HostileEnvironmentTests {
    static let strict = """
        setmetatable(_G, {__newindex = function() error("strict") end, __index = function(_, k) error("undefined " .. k) end})
        """
    static let app = """
        local C = ck.component("C", {scope = true, initialState = 0, render = function(self, p, s) return ck.Text{text = "n" .. s} end,
          bump = function(self) self:updateState(function(s) return s + 1 end) end})
        """
    /// Fills memory to the limit (caught), keeping what it filled.
    static let fill = """
        local big = {}
        local filled, fillError = pcall(function() for i = 1, 1e8 do big[i] = ("x"):rep(64) .. i end end)
        """
    /// Allocates far past an 8 MB limit: must fail with [memoryLimit] if the limit is still on.
    static let limitStillOn = """
        local ok, err = pcall(function() local t = {} for i = 1, 1e7 do t[i] = {i} end end)
        print("limit on", not ok and tostring(err):match("^%[memoryLimit%]") ~= nil)
        """

    private func expectHealthy(_ r: ProcessResult, _ what: String) {
        #expect(!r.stderr.contains("unprotected Lua error"), "\(what): \(r.stderr)")
        #expect(!r.stderr.contains("crashed"), "\(what): \(r.stderr)")
        #expect(r.status == 0 || r.status == 1, "\(what): status \(r.status)")
    }

    @Test func ckRunUnderStrictGlobalsSetsAppRaw() throws {
        let r = try Ckrun.run(["-e", Self.strict + "\n" + Self.app + """
            local h = ck.run(function() return C{} end)
            print(rawget(_G, "app") == h, "ok")
            """])
        expectHealthy(r, "ck.run")
        #expect(r.stdout == "true\tok\n", "\(r.stderr)")
    }

    @Test func anAppUnderStrictGlobalsRunsAndItsReplWorks() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", Self.strict + "\n" + Self.app + "\nreturn function() return C{} end\n")
        let run = try Ckrun.run([file.path])
        expectHealthy(run, "app")
        #expect(run.status == 0, "\(run.stderr)")
        let repl = try Ckrun.run(["repl", file.path], stdin: "print(rawget(_G, 'app') ~= nil)\nx = 1\nprint('after')\n")
        expectHealthy(repl, "repl on the app")
        #expect(repl.stdout.contains("true\n"), "\(repl.stderr)")
        #expect(repl.stdout.contains("after\n"))
        #expect(repl.stderr.contains("strict"))
    }

    @Test func aTestFileUnderStrictGlobals() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("strict_spec.lua", Self.strict + "\n" + Self.app + """
            describe("strict", function()
              it("runs an app", function() local h = ck.run(function() return C{} end) assert.truthy(rawget(_G, "app")) end)
              it("fails a test", function() assert.equal(1, 2) end)
            end)
            """)
        let r = try Ckrun.run(["test", file.path])
        expectHealthy(r, "ckrun test")
        #expect(r.stdout.contains("1 passed, 1 failed"), "\(r.stdout)\(r.stderr)")
    }

    @Test func theReplWithStrictGlobalsEvaluatesEveryLine() throws {
        let r = try Ckrun.run(["repl"], stdin: Self.strict + "\nprint('one')\nundefinedName\n.help\nprint('two')\n")
        expectHealthy(r, "repl")
        #expect(r.stdout.contains("one\n") && r.stdout.contains("two\n"), "\(r.stdout)\(r.stderr)")
    }

    @Test func memoryAtTheLimitThenCk() throws {
        let r = try Ckrun.run(["--memory-limit", "8", "-e", Self.strict + "\n" + Self.fill + "\n" + Self.app + """
            print(filled, (tostring(fillError):match("^%[%a+%]")))
            print(pcall(ck.run, function() return C{} end))
            rawset(_G, "big", nil)
            """ + "\n" + Self.limitStillOn])
        expectHealthy(r, "script at the limit")
        #expect(r.stdout.hasPrefix("false\t[memoryLimit]\n"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("limit on\ttrue\n"), "\(r.stdout)\(r.stderr)")
    }

    @Test func theReplAtTheMemoryLimitReadsItsNextLines() throws {
        let lines = ["big = {} pcall(function() for i = 1, 1e8 do big[i] = ('x'):rep(64) .. i end end)",
                     "print('next')", "local C = ck.component('C', {}) pcall(ck.host, function() return C{} end)",
                     ".help", "print(('y'):rep(100))", Self.limitStillOn.replacingOccurrences(of: "\n", with: " ")]
        let r = try Ckrun.run(["repl", "--memory-limit", "8"], stdin: lines.joined(separator: "\n") + "\n")
        expectHealthy(r, "repl at the limit")
        #expect(r.stdout.contains("next\n"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("limit on\ttrue\n"), "\(r.stdout)\(r.stderr)")
    }

    @Test func aTestFileAtTheMemoryLimit() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("mem_spec.lua", Self.strict + "\n" + Self.app + """
            local big = {}
            describe("memory", function()
              it("fills it", function()
                pcall(function() for i = 1, 1e8 do big[i] = ("x"):rep(64) .. i end end)
                ck.run(function() return C{} end)
              end)
              it("goes on", function() big = nil collectgarbage() assert.equal(1, 1) end)
            end)
            """)
        let r = try Ckrun.run(["test", "--memory-limit", "8", file.path])
        expectHealthy(r, "test at the limit")
        #expect(r.stdout.contains("goes on"), "\(r.stdout)\(r.stderr)")
    }

    @Test func anErrorInStrictGlobalsDoesNotLeaveTheLimitOff() throws {
        // Before: ck.run's unprotected global store raised through Swift and left host mode on.
        let r = try Ckrun.run(["--memory-limit", "8", "-e", Self.strict + "\n" + Self.app + """
            for i = 1, 3 do pcall(ck.run, function() return C{} end) end
            """ + "\n" + Self.limitStillOn])
        expectHealthy(r, "limit after strict errors")
        #expect(r.stdout == "limit on\ttrue\n", "\(r.stdout)\(r.stderr)")
    }

    @Test func outOfMemoryUnderPcallIsCatalogued() throws {
        let r = try Ckrun.run(["--memory-limit", "8", "-e", """
            local function fill() local t = {} for i = 1, 1e8 do t[i] = ("x"):rep(64) .. i end end
            print(pcall(fill))
            print(xpcall(fill, function(m) return "handled: " .. tostring(m) end))
            local co = coroutine.create(fill)
            print(coroutine.resume(co))
            print(pcall(coroutine.wrap(fill)))
            """])
        expectHealthy(r, "out of memory under pcall")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(r.stdout)\(r.stderr)")
        #expect(lines.allSatisfy { !$0.contains("not enough memory") }, "\(r.stdout)")
        // Where the allocation passed the limit (in fill), not the pcall's line.
        #expect(lines[0].hasPrefix("false\t[memoryLimit] (command line):1: "), "\(r.stdout)")
        for line in lines { #expect(line.hasPrefix("false\t[memoryLimit]"), "\(r.stdout)") }
    }
}
