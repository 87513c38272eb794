import CKTestHelpers
import Foundation
import Testing

/// `.trace`, `.send` and `ck.config` in the REPL (atk-repl 15, 20, 21, 27).
@Suite("The REPL's dot commands keep the app's settings and say what they did")
struct ReplDotCommandRepairTests {
    static let rowApp = """
        log = {}
        ck.controller("RowController", {
          pick = function(self, sender, n) print("pick got", type(n), n) end,
          boom = function(self) error("kaboom in handler") end,
        })
        local Row = ck.component("Row", {scope = true, render = function() return ck.Text{text = "r"} end})
        return function() return ck.Stack{children = {Row{}}} end
        """

    /// `.trace on` prints as well as the app's own `ck.config.onTrace`, `.trace off` puts it back
    /// (it replaced it, then set it to nil: the app's tracer was lost).
    @Test func traceKeepsTheAppsOwnTracer() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", Self.rowApp)
        let input = """
            ck.config.onTrace = function(e) log[#log + 1] = tostring(e) end
            mine = ck.config.onTrace
            .trace on
            .send Row pick
            =#log
            .trace off
            =ck.config.onTrace == mine
            .send Row pick
            =#log

            """
        let r = try Ckrun.run(["repl", file.path], stdin: input)
        let lines = r.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("pick got") }
        #expect(Array(lines.suffix(5)) == ["pick from Row: Stack/Row -> RowController (handled)", "1", "true",
                                           "pick from Row: Stack/Row -> RowController (handled)", "2"] ||
                Array(lines.suffix(5)) == ["pick from Row: Row -> RowController (handled)", "1", "true",
                                           "pick from Row: Row -> RowController (handled)", "2"], "\(r.stdout)\(r.stderr)")
    }

    /// The app's tracer raising under `.trace on` is its own `[configCallbackFailed]`: no frame of
    /// the REPL's chunk, which now calls it.
    @Test func theAppsRaisingTracerNamesNoReplFrame() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", Self.rowApp)
        let r = try Ckrun.run(["repl", file.path], stdin: "ck.config.onTrace = function(e) error('tracer boom') end\n.trace on\n.send Row pick\n")
        #expect(r.stdout.contains("pick from Row"), "\(r.stdout)")
        #expect(r.stderr.contains("[configCallbackFailed]") && r.stderr.contains("tracer boom"), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
    }

    /// `=ck.config` shows the settings and `pairs` visits them (it printed `{}`).
    @Test func configShowsItsSettings() throws {
        let r = try Ckrun.run(["repl"], stdin: "=ck.config\nn = 0 for k in pairs(ck.config) do n = n + 1 end\n=n\n")
        #expect(r.stdout.hasPrefix("{\n  maxDepth = 1048576,\n  onWarning = function"), "\(r.stdout)")
        #expect(r.stdout.contains("  unhandledAction = \"error\"\n}\n"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("\n3\n"), "\(r.stdout)")
    }

    /// A misspelt type in `.send`'s TYPES is `[unknownType]`, as ck.action says; the table was
    /// sent as an argument, silently.
    @Test func aMisspeltTypeInSendIsUnknownType() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", Self.rowApp)
        let r = try Ckrun.run(["repl", file.path], stdin: ".send Row pick {\"int\"} 3\n.send Row pick {\"Int\"} 3\n")
        #expect(r.stdout.contains("pick got\tnumber\t3"), "\(r.stdout)")
        #expect(!r.stdout.contains("pick got\ttable"), "\(r.stdout)")
        #expect(r.stderr.contains("\n[unknownType] unknown type \"Int\""), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
    }

    /// `.send` of a handler that raises prints its trace line, then the error (it printed none).
    @Test func aFailingSendIsTraced() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", Self.rowApp)
        let r = try Ckrun.run(["repl", file.path], stdin: ".send Row boom\nprint('after')\n")
        #expect(r.stdout.contains("boom from Row: Stack/Row -> RowController (handled)\nafter\n")
                || r.stdout.contains("boom from Row: Row -> RowController (handled)\nafter\n"), "\(r.stdout)")
        #expect(r.stderr.contains("\n[actionFailed] RowController.boom of Stack/Row (handling \"boom\") raised:\n"), "\(r.stderr)")
        #expect(r.stderr.contains("app.lua:4: kaboom in handler"), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
    }

    /// atk-safety3 01: a timer that never comes due (`ck.after(math.huge, f)`, or any once the
    /// clock reached its end) made every `.time` and `.advance` after fail with string.format's
    /// "bad argument #4 to 'format'". Every clock reading goes through one function.
    @Test func neverDueTimersKeepTheClockCommandsWorking() throws {
        let input = """
            ck.after(math.huge, function() end)
            .pause
            .advance 1
            .time
            .advance 1e308
            ck.after(1, function() end)
            .time

            """
        let r = try Ckrun.run(["repl"], stdin: input)
        #expect(!r.stdout.contains("bad argument") && !r.stderr.contains("bad argument"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("0 timers fired; time 1s (paused), 1 timer pending, none ever due"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("time 1s (paused), 1 timer pending, none ever due"), "\(r.stdout)\(r.stderr)")
    }
}
