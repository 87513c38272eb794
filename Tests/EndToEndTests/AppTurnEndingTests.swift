import CKTestHelpers
import Foundation
import Testing

/// Every turn of the app loop is a turn of its own and ends the same way, whatever its code did:
/// a timer `.advance` fires gets its own `--timeout` (attack report, break 15), and what a timer
/// that raised had queued is built right after it, piped, live and in `ckrun tree` (break 01).
@Suite("Turns of their own, each ending with its updates built")
struct AppTurnEndingTests {
    /// A counter whose timer queues +1 and then raises.
    private static let raisingTimerApp = """
        local C = ck.component("C", {scope = true, initialState = 0,
          render = function(self, props, n) return ck.Text{text = "count " .. n} end})
        ck.controller("CController", {didMount = function(self)
          ck.after(0.2, function()
            self.component:updateState(function(n) return n + 1 end)
            error("timer boom")
          end)
        end})
        return C
        """

    /// One timer loops until `--timeout` stops it; the "autosave" due after it still has its own
    /// time, and so has the `.advance` line, whose own time stopped while the timers ran.
    @Test func aTimerStoppedByTheTimeoutInAdvanceLeavesTheOthersTheirOwnTime() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", """
            local C = ck.component("C", {scope = true, initialState = "waiting",
              render = function(self, p, s) return ck.Text{text = s} end})
            ck.controller("CController", {didMount = function(self)
              ck.after(1, function() while true do end end)
              ck.after(5, function() self.component:updateState("saved at " .. ck.now()) end)
            end})
            return C
            """)
        let r = try Ckrun.run(["--timeout", "0.5", app.path, "--paused"], stdin: ".advance 10\n=app.root.state\n", timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "[timerFailed]").count == 2, "only the looping timer fails: \(r.stderr)")
        #expect(r.stderr.contains("app.lua:4: a timer set here failed; the app goes on: [timeout]"), "\(r.stderr)")
        #expect(r.stdout == "2 timers fired; time 10s (paused), no timers pending\n\"saved at 5.0\"\n", "\(r.stdout)")
    }

    @Test func anUpdateQueuedByARaisingTimerIsBuiltAtOnceOnTheWallClock() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", Self.raisingTimerApp)
        // The line comes 1.5 s after the timer failed: nothing but the timer's turn built it.
        let piped = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", """
            (sleep 1.5; echo 'print(app.root.state, app.generation)') | "$0" "$1" --clock wall
            """, Ckrun.executableURL.path, app.path], timeout: 30)
        #expect(piped.stderr.contains("[timerFailed]") && piped.stderr.contains("timer boom"), "\(piped.stderr)")
        #expect(piped.stdout == "1\t2\n", "the update built, generation 2: \(piped.stdout)")
    }

    @Test func anUpdateQueuedByARaisingTimerIsBuiltOnTheVirtualClockAndInTheTree() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", Self.raisingTimerApp)
        let r = try Ckrun.run([app.path], stdin: "print(app.root.state, app.generation)\n", timeout: 30)
        #expect(r.stderr.contains("[timerFailed]") && r.stderr.contains("timer boom"), "\(r.stderr)")
        #expect(r.stdout == "1\t2\n", "built before the first input: \(r.stdout)")
        let tree = try Ckrun.run(["tree", app.path], timeout: 30)
        #expect(tree.status == 1, "\(tree.stderr)")
        #expect(tree.stdout.hasPrefix("C [CController] state=1\n"), "as an interactive run builds it: \(tree.stdout)")
    }
}
