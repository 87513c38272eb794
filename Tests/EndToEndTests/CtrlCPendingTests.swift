import CKTestHelpers
import Foundation
import Testing

/// One Ctrl-C stops the turn it came in, whatever catches its error on the way: a `pcall`,
/// `coroutine.resume`, `wrap`, `close` or `xpcall` sees `[interrupted]`, but the next instruction
/// raises it again, in whatever thread runs, until the turn ends, as `--timeout` stops the same
/// code (atk-new2 08: the main thread went on after `resume` returned the error, the next
/// coroutine looped for good, and the second Ctrl-C ended the REPL, its session lost; in `ckrun
/// test` the test ran on and the second Ctrl-C ended the run).
@Suite("One Ctrl-C stops its turn through pcall and coroutines")
struct CtrlCPendingTests {
    /// Loops that catch each Ctrl-C's error and go on, each in one line; each writes `started`
    /// first, so the signal comes once it runs.
    static let loops: [String] = [
        "while true do local co = coroutine.create(function() while true do end end); coroutine.resume(co) end",
        "while true do pcall(function() while true do end end) end",
        "while true do pcall(coroutine.wrap(function() while true do end end)) end",
        "while true do xpcall(function() while true do end end, function(e) return e end) end",
        "while true do local co = coroutine.create(function() local x <close> = setmetatable({}, {__close = function() while true do end end}); coroutine.yield() end); coroutine.resume(co); coroutine.close(co) end",
        // A message handler that loops (Lua runs it with hooks off for an error a hook raised:
        // atk-new3 04, the turn never stopped and SIGTERM was ignored too).
        "while true do xpcall(function() while true do end end, function(e) while true do end end) end",
    ]

    static func marked(_ loop: String) -> String { "io.open('started', 'w'):close(); " + loop }

    /// Runs `ckrun ARGUMENTS` in `directory` with `input` on stdin, sends one SIGINT once the
    /// file `started` exists, and waits up to 10 s for the end: "status N", or "still running"
    /// (then killed); its stdout and stderr.
    static func interruptedOnce(_ arguments: [String], input: String = "", signal: String = "INT", in directory: TemporaryDirectory) throws -> (status: String, out: String, err: String) {
        try directory.write("input.txt", input)
        // A child of a non-interactive shell ignores SIGINT: `trap - INT` gives it the default back.
        let script = """
        trap - INT; "$0" "$@" < input.txt > out.txt 2> err.txt & pid=$!
        i=0; while [ ! -e started ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
        sleep 0.3; kill -\(signal) $pid
        i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
        if kill -0 $pid 2>/dev/null; then echo "still running"; kill -KILL $pid; fi
        wait $pid; echo "status $?"
        """
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path] + arguments,
                                          directory: directory.url, timeout: 60)
        let read = { (name: String) in (try? String(contentsOf: directory.url.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        return (result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), read("out.txt"), read("err.txt"))
    }

    /// The REPL prints one `[interrupted]` and reads on: its session (a global set before) intact.
    @Test(arguments: loops)
    func theReplGoesOnAfterOneCtrlC(loop: String) throws {
        let dir = try TemporaryDirectory()
        let input = "kept = 42\n" + Self.marked(loop) + "\nprint('after', kept)\n"
        let (status, out, err) = try Self.interruptedOnce(["repl"], input: input, in: dir)
        #expect(status == "status 0", "\(status): \(err)")
        #expect(out == "after\t42\n", "\(out) \(err)")
        #expect(err.components(separatedBy: "[interrupted]").count == 2 && err.contains("stopped by Ctrl-C"), "\(err)")
    }

    /// An app's run: an input line, and an action's handler the runtime calls (and reports the
    /// error of): one Ctrl-C stops the turn, the next input runs. (A plain script keeps lua.c's
    /// Ctrl-C: raised once, a pcall may catch it: LuaCompatibilityTests.)
    @Test(arguments: [loops[0], loops[1], loops[5], ".tap C"])
    func anAppRunGoesOnAfterOneCtrlC(input: String) throws {
        let dir = try TemporaryDirectory()
        try dir.write("app.lua", """
            return ck.component("C", {scope = true,
              render = function(self) return ck.Button{title = "go", action = self:action("go")} end,
              go = function(self) \(Self.marked(Self.loops[0])) end})

            """)
        let line = input.hasPrefix(".") ? input : Self.marked(input)
        let (status, out, err) = try Self.interruptedOnce(["app.lua"], input: "kept = 42\n\(line)\nprint('after', kept)\n", in: dir)
        #expect(status == "status 0", "\(status): \(err)")
        #expect(out.hasSuffix("after\t42\n"), "\(out) \(err)")
        #expect(err.components(separatedBy: "[interrupted]").count == 2 && err.contains("stopped by Ctrl-C"), "\(err)")
    }

    /// A timer `.advance` fires is a turn of its own: one Ctrl-C stops it and the advance, the
    /// build after it runs, the advance says where the clock stopped, once.
    @Test func aTimerAnAdvanceFiresStopsAndTheBuildAfterItRuns() throws {
        let dir = try TemporaryDirectory()
        try dir.write("app.lua", """
            local C = ck.component("C", {scope = true, initialState = 0,
              render = function(self, p, s) return ck.Text{text = "n=" .. s} end})
            ck.after(1, function()
              app.root:updateState(function(o) return o + 1 end)
              \(Self.marked(Self.loops[1]))
            end)
            ck.after(1.5, function() print("second timer") end)
            return C

            """)
        let (status, out, err) = try Self.interruptedOnce(["--paused", "app.lua"], input: ".advance 2\n.tree\n", in: dir)
        #expect(status == "status 0", "\(status): \(err)")
        #expect(out.contains("1 timer fired; time 1s (paused), 1 timer pending") && out.contains("C state=1"), "\(out) \(err)")
        #expect(!out.contains("second timer"), "\(out)")
        #expect(err.components(separatedBy: "[interrupted]").count == 2, "\(err)")
    }

    /// `ckrun test`: a first Ctrl-C stops the running test, the next test runs, the run ends
    /// with its report (status 1: a test errored), serial and under --jobs.
    @Test(arguments: [(0, "1"), (1, "1"), (0, "2"), (3, "2"), (5, "1"), (5, "2")])
    func aFirstCtrlCStopsTheTestAndTheRunGoesOn(loop: Int, jobs: String) throws {
        let dir = try TemporaryDirectory()
        try dir.write("spec/k_spec.lua", """
        it("ok1", function() end)
        it("loop", function() \(Self.marked(Self.loops[loop])) end)
        it("ok2", function() end)

        """)
        let (status, out, err) = try Self.interruptedOnce(["test", "--jobs", jobs, "-o", "tap", "spec"], in: dir)
        #expect(status == "status 1", "\(status): \(out) \(err)")
        #expect(out.contains("ok 1 - ok1") && out.contains("not ok 2 - loop") && out.contains("ok 3 - ok2") && out.contains("1..3"), "\(out) \(err)")
        #expect(out.contains("[interrupted] spec/k_spec.lua:2: stopped by Ctrl-C"), "\(out)")
    }

    /// SIGTERM ends an app's run in bounded time whatever holds its turn: a loop in an xpcall's
    /// message handler is stopped as Ctrl-C stops it; a finalizer that loops (no hook runs
    /// there) cannot be, and the process ends by SIGTERM a moment later, saying so (atk-new3 04:
    /// SIGTERM, even twice, was ignored; only SIGKILL ended it).
    @Test(arguments: [loops[5], "setmetatable({}, {__gc = function() while true do end end}); collectgarbage()"])
    func sigtermEndsAnAppRunWhateverHoldsItsTurn(line: String) throws {
        let dir = try TemporaryDirectory()
        try dir.write("app.lua", "return ck.component(\"C\", {render = function() return nil end})\n")
        let (status, _, err) = try Self.interruptedOnce(["app.lua"], input: Self.marked(line) + "\nprint('next')\n", signal: "TERM", in: dir)
        #expect(status == "status 143", "\(status): \(err)")
        #expect(err.contains("stopped by SIGTERM"), "\(err)")
    }

    /// A long `.advance` (a 1 kHz ticker over 20,000 s, one turn a timer) under --timeout: SIGTERM
    /// ends the run at once and Ctrl-C stops the whole command (the next line runs), and no
    /// message names the REPL's own chunk. Each timer's turn set its own deadline, which took
    /// the pending stop's hook off and replaced SIGTERM's grace timer: still running 93 s after
    /// SIGTERM under --timeout 30, "[interrupted] (repl):640: … a C function … held the turn"
    /// under --timeout 2 (sweep15, atk-react 15).
    @Test(arguments: ["TERM", "INT"])
    func aSignalStopsALongAdvanceUnderATimeout(signal: String) throws {
        let dir = try TemporaryDirectory()
        try dir.write("app.lua", """
            local C = ck.component("C", {scope = true, initialState = "waiting", render = function(self, p, s) return ck.Text{text = s} end})
            ck.controller("CController", {didMount = function(self)
              local function tick() self.t = ck.after(0.001, tick) end
              self.t = ck.after(0.001, tick)
            end})
            return C

            """)
        let input = "io.open('started', 'w'):close()\n.advance 20000\nprint('after')\n"
        let (status, out, err) = try Self.interruptedOnce(["--timeout", "30", "app.lua", "--paused"], input: input, signal: signal, in: dir)
        #expect(!err.contains("(repl)") && !err.contains("held the turn"), "\(err)")
        if signal == "TERM" {
            #expect(status == "status 143", "\(status): \(err)")
            #expect(err.contains("stopped by SIGTERM"), "\(err)")
        } else {
            #expect(status == "status 0", "\(status): \(err)")
            #expect(out.hasSuffix("after\n") && err.contains("stopped by Ctrl-C"), "\(out) \(err)")
        }
    }

    /// On a terminal (the attack's own case): one Ctrl-C, the prompt again, the session intact.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theReplOnATerminalReturnsToItsPromptAfterOneCtrlC() throws {
        let s = try ReplTerminalTests.Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) repl")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try s.line("kept = 42")
        try s.line(Self.loops[0])
        Thread.sleep(forTimeInterval: 1)
        try s.keys("C-c")
        try s.wait("the interruption and the prompt") { $0.contains("[interrupted]") && AppTerminalTests.lines($0).last == ">" }
        try s.line("print('after', kept)")
        let screen = try s.wait("the session's global") { AppTerminalTests.lines($0).contains { $0.hasPrefix("after") && $0.hasSuffix("42") } }
        #expect(screen.components(separatedBy: "[interrupted]").count == 2, "\(screen)")
    }
}
