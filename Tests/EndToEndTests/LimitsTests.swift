import CKTestHelpers
import Foundation
import Testing

@Suite("Limits and the sandbox, from the command line")
struct LimitsTests {
    @Test func timeoutStopsTheChunkWithACataloguedError() throws {
        let r = try Ckrun.run(["--timeout", "0.3", "-e", "while true do pcall(function() while true do end end) end"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout]"))
    }

    @Test func theReplGoesOnAfterATimeout() throws {
        let r = try Ckrun.run(["repl", "--timeout", "0.3"], stdin: "while true do end\nprint('alive')\n")
        #expect(r.status == 0)
        #expect(r.stderr.contains("[timeout]"))
        #expect(r.stdout == "alive\n")
    }

    @Test func memoryLimitStopsTheScriptAndTheProcessStaysHealthy() throws {
        let r = try Ckrun.run(["--memory-limit", "16", "-e", "local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(64) .. i end"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("[memoryLimit]"))
        let repl = try Ckrun.run(["repl", "--memory-limit", "16"],
                                 stdin: "local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(64) .. i end\ncollectgarbage() print('alive')\n")
        #expect(repl.stderr.contains("[memoryLimit]"))
        #expect(repl.stdout == "alive\n")
    }

    @Test func memoryLimitInsideARuntimeCall() throws {
        let r = try Ckrun.run(["--memory-limit", "16", "-e", """
            local C = ck.component("Big", {render = function() local t = {} for i = 1, 1e8 do t[i] = {i} end end})
            local ok, err = pcall(ck.host, function() return C{} end)
            print(ok, tostring(err):match("^%[%a+%]"), tostring(err):match("\\n(%[memoryLimit%] %(command line%):1: )"))
            """])
        #expect(r.stdout == "false\t[buildFailed]\t[memoryLimit] (command line):1: \n", "\(r.stderr)")
    }

    /// Under --sandbox an allowed function's error names the script's line, as lua5.4's does
    /// (it named the sandbox's own chunk, `(sandbox):121:`), and load's mode is honoured.
    @Test func sandboxedFunctionsFailAtTheScriptsLine() throws {
        let dir = try TemporaryDirectory()
        try dir.write("s.lua", """
            for _, f in ipairs({function() io.lines("/nonexistent") end, function() io.open(nil) end,
                                function() load("x", {}) end, function() loadfile({}) end, function() dofile({}) end,
                                function() io.input("/nonexistent") end, function() debug.getinfo("x") end}) do
              print(select(2, pcall(f)))
            end
            print(load("return 1", "x", "b"))
            print(load("return 1", "x", ""))
            print(pcall(load, "return 1", "x", {}))
            """)
        let r = try Ckrun.run(["--sandbox", "s.lua"], directory: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").map(String.init) == [
            "s.lua:1: cannot open file '/nonexistent' (No such file or directory)",
            "s.lua:1: bad argument #1 to 'open' (string expected, got nil)",
            "s.lua:2: bad argument #2 to 'load' (string expected, got table)",
            "s.lua:2: bad argument #1 to 'loadfile' (string expected, got table)",
            "s.lua:2: bad argument #1 to 'dofile' (string expected, got table)",
            "s.lua:3: cannot open file '/nonexistent' (No such file or directory)",
            "s.lua:3: bad argument #1 to 'getinfo' (number expected, got string)",
            "nil\tattempt to load a text chunk (mode is 'b')",
            "nil\tattempt to load a text chunk (mode is '')",
            "false\tbad argument #3 to 'load' (string expected, got table)",
        ], "\(r.stdout)")
    }

    @Test func sandboxRefusesProgramsCModulesAndWrites() throws {
        let dir = try TemporaryDirectory()
        try dir.write("data.txt", "readable")
        let script = try dir.write("s.lua", """
            local here = arg[0]:match("^(.*/)")
            for _, f in ipairs({function() os.execute("true") end, function() io.popen("true") end,
                                function() package.loadlib("x", "y") end, function() os.remove(here .. "data.txt") end,
                                function() io.open(here .. "out.txt", "w") end, function() io.open(here .. "data.txt", "r+") end}) do
              local ok, err = pcall(f)
              print(ok, (tostring(err):match("^%[%a+%]")))
            end
            print(io.open(here .. "data.txt"):read("a"))
            print(pcall(require, "socket.core"))
            """)
        let r = try Ckrun.run(["--sandbox", script.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.prefix(6).allSatisfy { $0 == "false\t[sandbox]" })
        #expect(lines[6] == "readable")
        #expect(lines[7].hasPrefix("false"))
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out.txt").path))
    }
}

@Suite("ckrun tree")
struct TreeCommandTests {
    private func app() throws -> (TemporaryDirectory, URL) {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", """
            ck.controller("CardController", {})
            local Card = ck.component("Card", {scope = function(p) return p.id end, initialState = {n = 1},
              render = function(self) return ck.Button{title = "go", action = self:action("go")} end, go = function() end})
            print("the app prints this")
            return function() return ck.Stack{children = {Card{id = "a"}, Card{id = "b"}}} end
            """)
        return (dir, file)
    }

    @Test func text() throws {
        let (dir, file) = try app()
        defer { withExtendedLifetime(dir) {} }
        let r = try Ckrun.run(["tree", file.path])
        #expect(r.status == 0)
        #expect(r.stdout == "Stack\n  Card#a [CardController] state={n = 1}\n    Button <UIButton title=\"go\">\n  Card#b [CardController] state={n = 1}\n    Button <UIButton title=\"go\">\n")
        #expect(r.stderr.contains("the app prints this"))
    }

    @Test func json() throws {
        let (dir, file) = try app()
        defer { withExtendedLifetime(dir) {} }
        let r = try Ckrun.run(["tree", file.path, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(object?["class"] as? String == "Stack")
        let cards = object?["children"] as? [[String: Any]]
        #expect(cards?.count == 2)
        #expect(cards?[1]["identifier"] as? String == "b")
        #expect(cards?[1]["controller"] as? String == "CardController")
        let button = (cards?[1]["children"] as? [[String: Any]])?.first
        #expect(button?["view"] as? String == "UIButton")
        #expect((button?["attributes"] as? [String: Any])?["title"] as? String == "go", "what the view shows")
        #expect((cards?[1]["state"] as? [String: Any])?["n"] as? Int == 1, "state is JSON")
    }

    @Test func dotDrawsTheResponderChain() throws {
        let (dir, file) = try app()
        defer { withExtendedLifetime(dir) {} }
        let r = try Ckrun.run(["tree", file.path, "--format", "dot"])
        #expect(r.stdout.hasPrefix("digraph ckrun {"))
        #expect(r.stdout.contains("label=\"CardController\""))
        #expect(r.stdout.contains("label=\"HostingView\""))
        #expect(r.stdout.contains("color=red, style=dashed"))
    }

    @Test func scriptWithoutAnAppIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("plain.lua", "print('hi')")
        let r = try Ckrun.run(["tree", file.path])
        #expect(r.status == 64, "SPEC §9: a usage error of ckrun's own subcommands")
        #expect(r.stderr.contains("runs no app"))
        #expect(try Ckrun.run(["tree", file.path, "--format", "png"]).status == 64)
    }
}
