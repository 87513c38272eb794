import CKTestHelpers
import Foundation
import Testing

@Suite("ckrun as a Lua interpreter")
struct InterpreterTests {
    @Test func evaluatesAChunk() throws {
        let r = try Ckrun.run(["-e", "print(1+1)"])
        #expect(r.status == 0)
        #expect(r.stdout == "2\n")
    }

    /// A hook set by `-e` or `-l` (luacov's `-lluacov`) stays set for the script, as in lua.c:
    /// clearing an interrupt removed it, so luacov counted nothing under ckrun.
    @Test func aHookSetBeforeTheScriptStaysSet() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("lines.lua", "local a = 1\nlocal b = 2\n")
        let r = try Ckrun.run(["-e", "debug.sethook(function(_, l) io.write(l, ' ') end, 'l')", script.path])
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix(" 1 2 ") || r.stdout == "1 2 ", "\(r.stdout)")
    }

    @Test func passesArgumentsLikeLua() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("args.lua", """
            #!/usr/bin/env ckrun
            print(select('#', ...), ...)
            print(arg[0], arg[1], arg[2], #arg)
            print(arg[-1] ~= nil)
            """)
        let r = try Ckrun.run([script.path, "one", "two words"])
        #expect(r.status == 0)
        #expect(r.stdout == "2\tone\ttwo words\n\(script.path)\tone\ttwo words\t2\ntrue\n")
    }

    @Test func scriptErrorExitsOneWithTraceback() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("boom.lua", "local function f() error('boom') end\nf()\n")
        let r = try Ckrun.run([script.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("boom.lua:1: boom"))
        #expect(r.stderr.contains("stack traceback:"))
        #expect(r.stdout.isEmpty)
    }

    @Test func syntaxErrorExitsOne() throws {
        let r = try Ckrun.run(["-e", "x = = 1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("unexpected symbol"))
    }

    @Test func osExitIsHonoured() throws {
        #expect(try Ckrun.run(["-e", "io.write('a') os.exit(7)"]).status == 7)
        #expect(try Ckrun.run(["-e", "os.exit(true)"]).status == 0)
        #expect(try Ckrun.run(["-e", "os.exit(false)"]).status == 1)
    }

    @Test func usageErrorsExit64() throws {
        let r = try Ckrun.run(["--no-such-flag"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--no-such-flag"))
        #expect(try Ckrun.run(["--timeout", "abc", "-e", "print(1)"]).status == 64)
    }

    @Test func missingFileExitsOne() throws {
        let r = try Ckrun.run(["/nonexistent/app.lua"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot open /nonexistent/app.lua"))
    }

    @Test func readsTheScriptFromStandardInput() throws {
        let r = try Ckrun.run(["-", "x"], stdin: "print('from stdin', ...)")
        #expect(r.status == 0)
        #expect(r.stdout == "from stdin\tx\n")
    }

    @Test func versionAndHelp() throws {
        let v = try Ckrun.run(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.hasPrefix("ckrun "))
        let h = try Ckrun.run(["--help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("USAGE") || h.stdout.contains("Usage") || h.stdout.contains("usage"))
    }

    @Test func standardLibrariesBehaveAsUnderLua() throws {
        let r = try Ckrun.run(["-e", """
            local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
            print(co(1), co(10))
            print(utf8.len("héllo"), utf8.char(72, 228))
            print(string.format("%5.2f|%d|%q|%x", 3.14159, 42, "a\\nb", 255))
            print(math.type(1), math.type(1.0), 7 // 2, 2^10)
            print(require("ck") == ck, type(ck.component))
            """])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "2\t20\n5\tHä\n 3.14|42|\"a\\\nb\"|ff\ninteger\tfloat\t3\t1024.0\ntrue\tfunction\n")
    }

    @Test func chunksRunInOrderBeforeTheScript() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("s.lua", "print(x)")
        let r = try Ckrun.run(["-e", "x = 41", "-e", "x = x + 1", script.path])
        #expect(r.stdout == "42\n")
    }
}
