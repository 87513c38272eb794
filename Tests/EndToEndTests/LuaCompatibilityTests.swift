import CKTestHelpers
import Foundation
import Testing

/// ckrun runs plain Lua as lua5.4 does: each difference scripts/luatests found in Lua 5.4.4's
/// own test suite (which CI cannot download) has a small test here.
@Suite("ckrun behaves as lua5.4")
struct LuaCompatibilityTests {
    private func file(_ dir: TemporaryDirectory, _ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = dir.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    private func sh(_ script: String, in dir: TemporaryDirectory? = nil) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path], directory: dir?.url)
    }

    // MARK: Bytes

    @Test func scriptBytesAreNotRewritten() throws {
        let dir = try TemporaryDirectory()
        let script = try file(dir, "latin1.lua", Array("print(#\"".utf8) + [0xE9] + Array("\", (\"".utf8) + [0xE9] + Array("\"):byte())\n".utf8))
        let r = try Ckrun.run([script.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "1\t233\n")
    }

    @Test func binaryChunksLoad() throws {
        let dir = try TemporaryDirectory()
        let out = dir.url.appendingPathComponent("hello.luac").path
        let writer = try dir.write("dump.lua", "local f = assert(io.open(arg[1], 'wb')) f:write(string.dump(load('print(\"from bytecode\", ...)'))) f:close()\n")
        #expect(try Ckrun.run([writer.path, out]).status == 0)
        let r = try Ckrun.run([out, "a1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "from bytecode\ta1\n")
    }

    @Test func argumentBytesReachArg() throws {
        let r = try sh(#""$0" -e "print(#arg[1], arg[1]:byte(4))" /dev/null "$(printf 'caf\351')""#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "4\t233\n")
    }

    @Test func aBOMAndAHashLineAreSkippedAsLuaDoes() throws {
        let dir = try TemporaryDirectory()
        let bom = try file(dir, "bom.lua", [0xEF, 0xBB, 0xBF] + Array("print('bom ok')\n".utf8))
        #expect(try Ckrun.run([bom.path]).stdout == "bom ok\n")
        let crlf = try file(dir, "crlf.lua", Array("#!/usr/bin/env ckrun\r\nprint(debug.getinfo(1).currentline)\n".utf8))
        let r = try Ckrun.run([crlf.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "2\n")
        let hashOnly = try file(dir, "hash.lua", Array("#comment without newline".utf8))
        #expect(try Ckrun.run([hashOnly.path]).status == 0)
        let e = try Ckrun.run(["-e", "# x"])
        #expect(e.status == 1)
        #expect(e.stderr.contains("unexpected symbol near '#'"))
    }

    // MARK: The app rule

    @Test func aReturnedFunctionIsNotAnAppWithoutAComponentClass() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("deep.lua", "local function deep(n) return n end\nprint('ran')\nreturn deep\n")
        let r = try Ckrun.run([script.path], stdin: "print('read as REPL input')\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "ran\n")
    }

    @Test func aReturnedFunctionIsAnAppAfterAComponentClass() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("app.lua", """
            local Hello = ck.component("Hello", {render = function() return ck.Text{text = "hi"} end})
            return function() return Hello{} end
            """)
        let r = try Ckrun.run([script.path], stdin: "print(app ~= nil)\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "true\n")
    }

    // MARK: lua.c's command line

    @Test func versionPrintsAndGoesOn() throws {
        let r = try Ckrun.run(["-v", "-eprint'hello'"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Lua 5.4"))
        #expect(r.stdout.hasSuffix("PUC-Rio\nhello\n"))
    }

    @Test func chunksAttachedOrNotRunInOrder() throws {
        let r = try Ckrun.run(["-eprint(1)", "-ea=3", "-e", "print(a)"])
        #expect(r.stdout == "1\n3\n")
    }

    @Test func librariesLoadWithMinusL() throws {
        let dir = try TemporaryDirectory()
        try dir.write("mymod.lua", "print('loading'); return {x = 15}\n")
        let env = ["LUA_PATH": dir.url.path + "/?.lua;;", "LUA_INIT": ""]
        let r = try Ckrun.run(["-l", "mymod", "-lm=mymod", "-l", "str=string", "-e", "print(mymod.x, m.x, str.upper('a'))"],
                              environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "loading\n15\t15\tA\n")
    }

    @Test func luaInitRunsFirstUnlessMinusE() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("x.lua", "print(X)\n")
        #expect(try Ckrun.run([script.path, "3.2"], environment: ["LUA_INIT": "X=tonumber(arg[1])"]).stdout == "3.2\n")
        #expect(try Ckrun.run([script.path], environment: ["LUA_INIT_5_4": "X=10", "LUA_INIT": "X=3"]).stdout == "10\n")
        let initFile = try dir.write("init.lua", "X = 'from file'\n")
        #expect(try Ckrun.run([script.path], environment: ["LUA_INIT": "@" + initFile.path]).stdout == "from file\n")
        let failing = try Ckrun.run(["-e", ""], environment: ["LUA_INIT": "error('msg')"])
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("LUA_INIT:1: msg"))
        let ignored = try Ckrun.run(["-E", script.path], environment: ["LUA_INIT": "error(10)", "LUA_PATH": "xxx"])
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(ignored.stdout == "nil\n")
        let path = try Ckrun.run(["-E", "-e", "print(package.path)"], environment: ["LUA_PATH": "xxx"])
        #expect(!path.stdout.contains("xxx") && path.stdout.contains("lua"))
    }

    @Test func warningsOnWithMinusW() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("w.lua", """
            warn("@allow")
            warn("@off", "XXX", "@off")
            warn("@off")
            warn("@on", "YYY", "@on")
            warn("@off")
            warn("@on")
            warn("", "@on")
            warn("@on")
            warn("Z", "Z", "Z")
            """)
        let r = try Ckrun.run(["-W", script.path])
        #expect(r.stderr == "Lua warning: @offXXX@off\nLua warning: @on\nLua warning: ZZZ\n")
        #expect(try Ckrun.run(["-e", "warn('not shown')"]).stderr == "")
        let long = try Ckrun.run(["-W", "-e", "warn(string.rep('x', 5000))"])
        #expect(long.stderr == "Lua warning: " + String(repeating: "x", count: 5000) + "\n")
    }

    @Test func finalizerErrorsAtCloseAreWarnings() throws {
        let r = try Ckrun.run(["-W", "-e", "u1 = setmetatable({}, {__gc = function() error('XYZ') end})"])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("Lua warning: error in __gc"))
        #expect(r.stderr.hasSuffix("XYZ)\n"))
        #expect(try Ckrun.run(["-e", "u1 = setmetatable({}, {__gc = function() error('XYZ') end})"]).stderr == "")
    }

    @Test func interactiveOnAPipeIsLuasREPL() throws {
        let r = try Ckrun.run(["-e", "_PROMPT='' _PROMPT2=''", "-i"], stdin: "(6*2-6) -- ===\na =\n10\nprint(a)\n=a\n")
        #expect(r.status == 0, "\(r.stderr)")
        for line in ["6\n", "10\n"] { #expect(r.stdout.contains(line)) }
        let bad = try Ckrun.run(["-e", "print=nil", "-i"], stdin: "10\n")
        #expect(bad.stderr.contains("error calling 'print'"))
    }

    /// Issue 24, B15: the prompt's conversion is a call into the script's code, so it is a turn
    /// (--timeout, --memory-limit); it hung forever and took 10x the memory limit before.
    @Test func interactivePromptsRunUnderTheLimits() throws {
        let loop = "setmetatable({}, {__tostring = function() while true do end end})"
        let first = try Ckrun.run(["--timeout", "1", "-i"], stdin: "_PROMPT = \(loop)\n1\n", timeout: 20)
        #expect(first.status == 1 && first.stderr.contains("[timeout]"), "\(first.stderr)")
        let second = try Ckrun.run(["--timeout", "1", "-i"], stdin: "_PROMPT2 = \(loop)\nif 1 then\nend\n", timeout: 20)
        #expect(second.status == 1 && second.stderr.contains("[timeout]"), "\(second.stderr)")
        let big = "setmetatable({}, {__tostring = function() local t = {} for i = 1, 3e7 do t[i] = i end return '> ' end})"
        let memory = try Ckrun.run(["--memory-limit", "20", "-i"], stdin: "_PROMPT = \(big)\n1\n", timeout: 20)
        #expect(memory.status == 1 && memory.stderr.contains("[memoryLimit]"), "\(memory.stderr)")
    }

    @Test func standardInputWithDashAndDoubleDash() throws {
        #expect(try Ckrun.run(["-", "-h"], stdin: "print(arg[1])").stdout == "-h\n")
        #expect(try Ckrun.run([], stdin: "print(10)\nprint(2)\n").stdout == "10\n2\n")
    }

    @Test func theArgTable() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("a.lua", """
            assert(#arg == 3 and arg[1] == 'a' and arg[2] == 'b' and arg[3] == 'c')
            assert(arg[-1] == '--' and arg[-2] == "-e " and arg[-3] ~= nil and arg[-4] == nil)
            local a, b, c = ...
            assert(a == 'a' and b == 'b' and c == 'c')
            print("ok")
            """)
        let r = try Ckrun.run(["-e ", "--", script.path, "a", "b", "c"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "ok\n")
        #expect(try Ckrun.run(["-e", "arg[1] = 100", "-"], stdin: "print(...)").stdout == "100\n")
        let notTable = try Ckrun.run(["-e", "arg = 1", "-"], stdin: "")
        #expect(notTable.status == 1)
        #expect(notTable.stderr.contains("'arg' is not a table"))
    }

    @Test func luasOptionErrorsAreLuas() throws {
        for (args, message) in [(["-h"], "unrecognized option '-h'"), (["---"], "unrecognized option '---'"),
                                (["-Ex"], "unrecognized option '-Ex'"), (["-vv"], "unrecognized option '-vv'"),
                                (["-e"], "'-e' needs argument"), (["-l"], "'-l' needs argument")] {
            let r = try Ckrun.run(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        #expect(try Ckrun.run(["-e", "a"]).stderr.contains("syntax error"))
    }

    @Test func aScriptNamedLikeASubcommandRunsWithAPath() throws {
        let dir = try TemporaryDirectory()
        try dir.write("test", "print('the script')\n")
        #expect(try Ckrun.run(["./test"], directory: dir.url).stdout == "the script\n")
        #expect(try Ckrun.run(["--timeout", "5", "run", "./test"], directory: dir.url).stdout == "the script\n")
    }

    // MARK: Errors, Ctrl-C, timeouts, the collector

    @Test func errorReportsAsLuaReportsThem() throws {
        let obj = try Ckrun.run(["-e", "error(setmetatable({}, {__tostring = function() return 'OBJ' end}))"])
        #expect(obj.status == 1)
        #expect(obj.stderr.hasSuffix(": OBJ\n"))
        let str = try Ckrun.run(["-e", "error('x')"])
        #expect(str.stderr.hasSuffix("\t(command line):1: in main chunk\n\t[C]: in ?\n"))
        #expect(try Ckrun.run(["-e", "error{}"]).stderr.contains("(error object is a table value)"))
        let missing = try Ckrun.run(["/nonexistent/x.lua"])
        // lua.c's shape, with the catalogue's id (every printed error carries one).
        #expect(missing.stderr.hasSuffix(": [cannotRead] cannot open /nonexistent/x.lua: No such file or directory\n"))
    }

    @Test(arguments: [false, true])
    func ctrlCIsAnErrorPcallCatches(ignoredByParent: Bool) throws {
        // The script prints 12, loops inside pcall; SIGINT makes the loop raise, pcall catches it.
        let trap = ignoredByParent ? "trap '' INT; " : ""
        let dir = try TemporaryDirectory()
        let r = try sh(#"""
            \#(trap)"$0" -e "pcall(function () print(12) io.stdout:flush() while true do end end) print(42)" > out.txt &
            pid=$!
            for i in $(seq 100); do grep -q 12 out.txt 2>/dev/null && break; sleep 0.1; done
            kill -INT $pid; wait $pid; echo "status $?"; cat out.txt
            """#, in: dir)
        #expect(r.stdout == "status 0\n12\n42\n", "\(r.stderr)")
    }

    @Test func theTimeoutStopsALongCFunction() throws {
        let r = try Ckrun.run(["--timeout", "1", "-e", "string.find(string.rep('a', 100000), '.*b')"], timeout: 30)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout]"))
    }

    @Test func theCollectorIsGenerational() throws {
        #expect(try Ckrun.run(["-e", "print(collectgarbage('incremental'))"]).stdout == "generational\n")
    }
}
