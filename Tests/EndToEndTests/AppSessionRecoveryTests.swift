import CKTestHelpers
import Foundation
import Testing

/// What an interactive run says when a command cannot do what was asked (outsider breaks on
/// real apps: a reload of a file that no longer returns its app, a clock step past a failing
/// timer, `ckrun tree` on a provider without classes).
@Suite("The app session, when a command cannot do what was asked")
struct AppSessionRecoveryTests {
    static let counter = """
        local Counter = ck.component("Counter", {scope = true, initialState = 0,
          render = function(self, props, n) return ck.Text{text = "v1 " .. n} end})
        return Counter
        """

    @Test func reloadOfAFileThatNoLongerReturnsAnAppSaysSoAndKeepsTheApp() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", Self.counter)
        let edited = Self.counter.replacingOccurrences(of: "v1", with: "v2").replacingOccurrences(of: "return Counter", with: "")
        let r = try Ckrun.run([app.path], stdin: """
            io.open(\(luaQuoted(app.path)), "w"):write(\(luaQuoted(edited))):close()
            .reload
            =app.generation
            .tree

            """)
        #expect(!r.stdout.contains("reloaded"), "no success is claimed: \(r.stdout)")
        #expect(r.stderr.contains("[badReturn] reloading \(app.path): the file returned nil and did not call ck.run"), "\(r.stderr)")
        #expect(r.stdout.contains("\n1\n"), "nothing was built: \(r.stdout)")
        #expect(r.stdout.contains("v1 0"), "the running app is kept: \(r.stdout)")
    }

    @Test func advanceReportsAFailingTimerAsTheRunLoopDoesAndFiresTheRest() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("ticks.lua", """
            local Tick = ck.component("Tick", {render = function() return ck.Text{text = "t"} end})
            ck.after(1, function() error("first tick fails") end)
            ck.after(2, function() print("second tick fired") end)
            return Tick
            """)
        let r = try Ckrun.run(["--paused", app.path], stdin: ".advance 5\n")
        #expect(r.stderr.contains("[timerFailed] "), "\(r.stderr)")
        #expect(r.stderr.contains("ticks.lua:2: a timer set here failed; the app goes on"), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "the timer's frames, not the REPL's: \(r.stderr)")
        #expect(r.stdout.contains("second tick fired"), "the later timer still fires: \(r.stdout)")
        #expect(r.stdout.contains("2 timers fired; time 5s (paused)"), "\(r.stdout)")
    }

    @Test func treeOfAProviderWithoutClassesNamesTheAppRule() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("provider.lua", "return function() return ck.Text{text = 'hi'} end")
        let r = try Ckrun.run(["tree", file.path])
        #expect(r.status == 64)
        #expect(r.stderr.contains("it returned a function but defined no component class"), "\(r.stderr)")
    }

    private func luaQuoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
