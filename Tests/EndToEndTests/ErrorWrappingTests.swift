import CKTestHelpers
import Foundation
import Testing

/// What wraps an error and what never does (atk-repl 11, 14, 16).
@Suite("Errors: Ctrl-C bare, repeated wrappers counted, advice one can follow")
struct ErrorWrappingTests {
    /// SIGINT until the process has read all its input and left.
    private func interrupted(_ arguments: [String], input: String) -> (Bool, String, String) {
        guard let run = try? RunningCkrun(arguments, input: input) else { return (false, "", "") }
        let process = run.process
        for _ in 0..<20 where process.isRunning {
            Thread.sleep(forTimeInterval: 0.5)
            if process.isRunning { process.interrupt() }
            for _ in 0..<30 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        }
        return run.finish()
    }

    /// Ctrl-C in a handler or a timer is `[interrupted]`, bare: not the handler's
    /// `[actionFailed]` or the timer's `[timerFailed]` (the user stopped it; nothing failed); run as
    /// lua5.4 runs a script (`-e`), lua.c's `interrupted!` is not wrapped either.
    @Test func ctrlCIsNeverWrapped() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", """
            local A = ck.component("A", {scope = true, render = function() return ck.Button{title = "go", action = ck.action("spin")} end})
            ck.controller("AController", {spin = function(self) while true do end end})
            return A
            """)
        let (_, out, err) = interrupted(["repl", file.path], input: "app:tap(\"Button\")\nprint('after')\n")
        #expect(out.hasSuffix("after\n"), "\(out)")
        #expect(err.contains("[interrupted]") && !err.contains("[actionFailed]"), "\(err)")

        let (_, _, timerErr) = interrupted(["-e", "ck.after(1, function() while true do end end) ck.advance(2)"], input: "")
        #expect(timerErr.contains("interrupted!") && !timerErr.contains("[timerFailed]"), "\(timerErr)")
    }

    /// Hosts built inside renders, level after level, until `[stackLimit]` (Lua's own limit of
    /// nested C calls, some 200 levels): the same `[buildFailed]` line is counted once, so the
    /// cause is at the top (it came after 64 lines).
    @Test func nestedBuildFailuresAreCounted() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("sl.lua", """
            local N
            N = ck.component("N", {render = function() ck.host(function() return N{} end) end})
            ck.host(function() return N{} end)
            """)
        let r = try Ckrun.run([file.path])
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("[buildFailed]") }.count <= 4, "\(r.stderr)")
        #expect(lines.prefix(6).contains { $0.hasPrefix("[stackLimit]") }, "\(r.stderr)")
        let counted = try Regex("\\(the same \\[buildFailed\\] 1[0-9][0-9] more times, each in a build nested in the one above")
        #expect(r.stderr.contains(counted), "\(r.stderr)")
    }

    /// A plain table with no such method: the advice adds a field to that table (it said
    /// `define function table:presnet`, a method of Lua's `table` library).
    @Test func doesNotRespondOnATableAdvisesAField() throws {
        let r = try Ckrun.run(["-e", "ck.action({present = function() end}, 'presnet')"])
        #expect(r.stderr.contains("[doesNotRespond] (command line):1: the target table has no method \"presnet\"; add presnet = function(self, sender, ...) to that table or fix the selector"), "\(r.stderr)")
        #expect(!r.stderr.contains("function table:"), "\(r.stderr)")
    }
}
