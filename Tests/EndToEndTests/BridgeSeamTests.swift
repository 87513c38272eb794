import CKTestHelpers
import Foundation
import Testing

/// Issue 24, class 10 (the bridge's parts): the time limit's second tick, LUA_INIT under
/// `--sandbox`, and `[memoryLimit]` messages.
@Suite("The watchdog, LUA_INIT under --sandbox, memory messages")
struct BridgeSeamTests {
    /// A finalizer runs with hooks off; each coroutine it makes carries the count hook, is
    /// stopped by it and its error is caught. The second tick once took any hook run as proof
    /// the overrun had stopped, and the process ran forever.
    static let finalizerLoop = """
        setmetatable({}, {__gc = function()
          while true do pcall(coroutine.wrap(function() for i = 1, 5000 do end end)) end
        end})
        collectgarbage()
        """

    @Test func aFinalizerLoopingThroughHookedCoroutinesEndsTheRun() throws {
        let r = try Ckrun.run(["--timeout", "1", "-e", Self.finalizerLoop], timeout: 30)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout]"), "\(r.stderr)")
    }

    @Test func aFinalizerLoopingThroughHookedCoroutinesEndsTheTestRun() throws {
        let dir = try TemporaryDirectory()
        try dir.write("spec/loop_spec.lua", "describe('d', function() it('loops', function()\n\(Self.finalizerLoop)\nend) end)")
        let r = try Ckrun.run(["test", "--timeout", "1", "spec"], directory: dir.url, timeout: 30)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout]"), "\(r.stderr)")
    }

    /// atk-busted4 08: every coroutine (and, with --timeout, the main thread) carried a count
    /// hook, so Lua traced each instruction: code in coroutines ran at half speed. No thread is
    /// hooked until the limit strikes; the alarm hooks the innermost coroutine and the main
    /// thread, and a coroutine that resumed it is hooked as it runs again.
    @Test func noThreadIsHookedBeforeTheLimitStrikes() throws {
        let r = try Ckrun.run(["--timeout", "5", "-e", "print(debug.gethook(), debug.gethook(coroutine.create(print)))"])
        #expect(r.stdout == "nil\tnil\n", "\(r.stdout) \(r.stderr)")
    }

    @Test func theCoroutineThatResumedALoopingOneIsStoppedToo() throws {
        let chain = """
            local inner = coroutine.create(function() while true do end end)
            local outer = coroutine.wrap(function() print(coroutine.resume(inner)); while true do end end)
            outer()
            """
        let r = try Ckrun.run(["--timeout", "1", "-e", chain], timeout: 30)
        #expect(r.status == 1)
        // Past the deadline every instruction raises: the outer one stops at its next (the print).
        #expect(r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.contains("[timeout] (command line):1:"), "\(r.stderr)")
        #expect(!r.stderr.contains("cannot be stopped"), "\(r.stderr)")
    }

    @Test func luaInitFileIsTextOnlyUnderSandbox() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write("init.lua", "print('init ran')")
        let chunk = dir.url.appendingPathComponent("init.luac").path
        let compiled = try Ckrun.runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["luac5.4", "-o", chunk, source.path])
        try #require(compiled.status == 0, "luac5.4: \(compiled.stderr)")
        let refused = try Ckrun.run(["--sandbox", "-e", "print('after')"], environment: ["LUA_INIT": "@" + chunk])
        #expect(refused.status == 1 && !refused.stdout.contains("init ran"), "\(refused.stdout)")
        #expect(refused.stderr.contains("[sandbox]"), "\(refused.stderr)")
        let text = try Ckrun.run(["--sandbox", "-e", "print('after')"], environment: ["LUA_INIT": "@" + source.path])
        #expect(text.stdout == "init ran\nafter\n", "\(text.stdout) \(text.stderr)")
        let plain = try Ckrun.run(["-e", "print('after')"], environment: ["LUA_INIT": "@" + chunk])
        #expect(plain.stdout == "init ran\nafter\n", "\(plain.stdout) \(plain.stderr)")
    }

    /// Lua calls no message handler for out of memory: a test's [memoryLimit] once came with
    /// an empty message.
    @Test func memoryLimitMessagesInATestAreNeverEmpty() throws {
        let dir = try TemporaryDirectory()
        try dir.write("spec/memory_spec.lua", """
            describe("memory", function()
              it("fills a table", function() local t = {} for i = 1, 1e8 do t[i] = i end end)
              it("makes a long string", function() local s = string.rep("x", 100 * 1024 * 1024) end)
              it("fills inside a coroutine", function()
                coroutine.wrap(function() local t = {} for i = 1, 1e8 do t[i] = i end end)()
              end)
            end)
            """)
        let r = try Ckrun.run(["test", "--memory-limit", "20", "spec"], directory: dir.url, timeout: 60)
        #expect(r.status == 1)
        #expect(r.stdout.components(separatedBy: "[memoryLimit]").count == 4, "\(r.stdout)")
    }
}
