import CKTestHelpers
import Foundation
import Testing

@Suite("The REPL, driven through standard input")
struct ReplTests {
    @Test func evaluatesLikeLuaInteractive() throws {
        let r = try Ckrun.run(["repl"], stdin: "1+1\nx = 5\nx*2\nfunction f()\nreturn 3\nend\nf()\n=x\nreturn 1, 'a', nil\n")
        #expect(r.status == 0)
        #expect(r.stdout == "2\n10\n3\n5\n1\t\"a\"\tnil\n")
        #expect(r.stderr.isEmpty)
    }

    @Test func errorsPrintWithTracebackAndTheSessionGoesOn() throws {
        let r = try Ckrun.run(["repl"], stdin: "error('oops')\nx = = 1\nprint('after')\n")
        #expect(r.status == 0)
        #expect(r.stdout == "after\n")
        #expect(r.stderr.contains("stdin:1: oops"))
        #expect(r.stderr.contains("stack traceback:"))
        #expect(r.stderr.contains("unexpected symbol"))
    }

    /// The REPL's own Lua reads the standard library as it was before any script ran: a user's
    /// `type = "primary"`, `load = nil` or app-defined `select` touch the user's code only, as in
    /// `lua -i` (the outsider's safety attack, 10: every later line failed inside "(repl)").
    @Test func userGlobalsNamedLikeTheStandardLibraryDoNotBreakTheRepl() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", """
            function select(x) return x end
            function load(name) return {name = name} end
            return ck.component("Label", {render = function() return ck.Text{text = "hi"} end})
            """)
        let r = try Ckrun.run(["repl", file.path], stdin: "type = 'primary'\n1 + 1\nload = nil\ntable = nil\nprint('hello')\n.tree\n")
        #expect(r.stdout.hasPrefix("2\nhello\n") && r.stdout.contains("Text"), "\(r.stdout)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
        #expect(!r.stderr.contains("syntax error"), "\(r.stderr)")
    }

    /// The same through lua.c's command line (`ckrun app.lua`, `LuaMain`), which keeps the
    /// library's copy only when a REPL can follow (`-e` alone does not take it: start-up).
    @Test func userGlobalsDoNotBreakTheAppSessionStartedFromTheCommandLine() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("app.lua", """
            return ck.component("Label", {render = function() return ck.Text{text = "hi"} end})
            """)
        let r = try Ckrun.run(["-e", "type = 'primary'", file.path], stdin: "table = nil\nprint('hello')\n.tree\n")
        #expect(r.stdout.contains("hello\n") && r.stdout.contains("Text"), "\(r.stdout)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
        let plain = try Ckrun.run(["-e", "type = 'primary'; print(select('#', 1, 2))"], stdin: "")
        #expect(plain.status == 0 && plain.stdout == "2\n", "\(plain.stdout)\(plain.stderr)")
    }

    @Test func printsTablesReadablyWithCycles() throws {
        let r = try Ckrun.run(["repl"], stdin: "t = {3, 2, name = 'n', [10] = true, nested = {deep = {deeper = {deepest = {x = 1}}}}} t.self = t\nt\n")
        #expect(r.stdout.hasPrefix("{\n  3,\n  2,\n"), "arrays first, in order, one per line when long")
        #expect(r.stdout.contains("name = \"n\""))
        #expect(r.stdout.contains("self = <cycle>"))
        #expect(r.stdout.contains("[10] = true"))
        #expect(r.stdout.contains("{...}"))
    }

    @Test func printsRuntimeObjectsWithTheirTostring() throws {
        let r = try Ckrun.run(["repl"], stdin: "ck.action('x', {'int'})\nck.host(function() return ck.Text{text = 'hi'} end)\n")
        #expect(r.stdout == "<selector action x {\"int\"}>\n<Host Text gen 1, unmounted>\n")
    }

    /// A component's props and state are read-only views (userdata): they print as their tables,
    /// and a state says it is one (the outsider's React attack, 04: `read-only props: 0x…`).
    @Test func printsPropsAndStateByTheirContents() throws {
        let app = try TemporaryDirectory()
        let file = try app.write("counter.lua", """
            local Counter = ck.component("Counter", {scope = true, initialState = {count = 0, label = "clicks"},
              render = function(self, props, state) return ck.Text{text = state.label} end})
            return function() return Counter{title = "hello", 3} end
            """)
        let r = try Ckrun.run(["repl", file.path], stdin: "=app.root.state\napp.root.props\ntostring(app.root.state):match('^[^:]*')\n")
        #expect(r.stdout == "{count = 0, label = \"clicks\"}\n{3, title = \"hello\"}\n\"read-only state\"\n", "\(r.stdout)")
    }

    /// `.reload` after `app:destroy()` says the host was destroyed, not that the file started
    /// no app (React attack, 17e).
    @Test func reloadAfterDestroySaysWhy() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", "return ck.component('A', {render = function() return nil end})\n")
        let r = try Ckrun.run([file.path], stdin: "app:destroy()\n.reload\n")
        #expect(r.stderr.contains("[usage] no app is running to reload: its host was destroyed (app:destroy())"), "\(r.stderr)")
    }

    /// LuaFileSystem, when this machine has it (a script can change directory only through it).
    static let hasLFS = (try? Ckrun.run(["-e", "require 'lfs'"]).status) == 0

    // The data attack's break 15: after a line changed directory, `.reload` ran sub/app.lua, a
    // file the run was never given; paths given at start name files as of then.
    @Test(.enabled(if: hasLFS, "LuaFileSystem is not installed"))
    func reloadRunsTheAppFileItWasStartedOnAfterAChdir() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("app.lua", "return ck.component('C', {render = function() return ck.Text{text = 'the app'} end})\n")
        _ = try dir.write("sub/app.lua", "return ck.component('C', {render = function() return ck.Text{text = 'another file'} end})\n")
        let r = try Ckrun.run(["repl", "app.lua"], stdin: "require('lfs').chdir('sub')\n.reload\n.tree\nprint(require('lfs').currentdir():match('sub$'))\n",
                              directory: dir.url)
        #expect(r.stdout.contains("reloaded app.lua"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("the app") && !r.stdout.contains("another file"), "\(r.stdout)")
        #expect(r.stdout.contains("sub\n"), "the app's own directory is kept after the reload: \(r.stdout)")
    }

    @Test func dotCommands() throws {
        let r = try Ckrun.run(["repl"], stdin: ".help\n.nope\n.tree\n.trace maybe\n.quit\nprint('not reached')\n")
        #expect(r.status == 0)
        #expect(r.stdout.contains(".chain QUERY"))
        #expect(r.stdout.contains(".reload"))
        #expect(!r.stdout.contains("not reached"))
        #expect(r.stderr.contains("unknown command .nope"))
        #expect(r.stderr.contains("no app is running"))
        #expect(r.stderr.contains("usage: .trace on|off"))
    }

    @Test func flushesAsyncUpdatesAfterEachInput() throws {
        let r = try Ckrun.run(["repl"], stdin: """
            C = ck.component("C", {scope = true, initialState = 0})
            h = ck.host(function() return C{} end)
            h.root:updateState(7)
            h.root.state

            """)
        #expect(r.stdout == "7\n", "\(r.stderr)")
    }

    @Test func appDotCommandsAndReload() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", """
            local Counter = ck.component("Counter", {scope = true, initialState = 0,
              render = function(self, p, s) return ck.Button{title = "n" .. s, action = self:action("bump")} end,
              bump = function(self) self:updateState(function(n) return n + 1 end) end})
            return Counter
            """)
        let r = try Ckrun.run(["repl", app.path], stdin: """
            .tap Button
            .tap Button
            .chain Button
            .trace on
            .send Button bump
            .trace off
            =app.root.state
            .reload
            =app.root.state
            .tree

            """)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "1 action sent" && lines[1] == "1 action sent")
        #expect(lines[2] == "<Button gen 3> -> <Counter gen 3> -> <HostingView> -> nil")
        #expect(lines.contains("bump from Button: Button -> Counter (handled)"))
        #expect(lines.contains("3"))
        #expect(lines.contains("reloaded \(app.path): generation 5, state and controllers kept"))
        #expect(lines.filter { $0.contains("bump from Button") }.count == 1, ".send prints its trace once with .trace on")
        #expect(lines.filter { $0 == "3" }.count == 2, "reload keeps the scope's state")
        #expect(lines.last == "  Button <UIButton title=\"n3\">", "the tree shows what is on screen")
    }

    @Test func ctrlCInterruptsARunningChunkAndTheSessionGoesOn() throws {
        let run = try RunningCkrun(["repl"], input: "while true do end\nprint('after')\n")
        let process = run.process
        // SIGINT (what Ctrl-C sends) until the loop stops; the REPL then reads on and leaves at EOF.
        for _ in 0..<20 where process.isRunning {
            Thread.sleep(forTimeInterval: 0.5)
            if process.isRunning { process.interrupt() }
            for _ in 0..<30 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        }
        let (exitedCleanly, out, err) = run.finish()
        #expect(exitedCleanly)
        #expect(err.contains("[interrupted]"))
        #expect(out == "after\n")
    }

    /// A script that changes the string metatable or deletes a string function changes its own
    /// code only: the REPL's own Lua calls the functions, not strings' methods. Before: every
    /// later input failed inside the REPL ("(repl):78: attempt to call a nil value (method 'sub')").
    @Test func aScriptsStringChangesLeaveTheReplWorking() throws {
        let input = "x = 5\nstring.sub = nil\nprint('STILL OK', x)\ngetmetatable('').__index = function() error('strmt') end\n"
            + "print('AND', x)\n=x\n"
        let r = try Ckrun.run(["repl"], stdin: input)
        #expect(r.stdout == "STILL OK\t5\nAND\t5\n5\n", "\(r.stdout)\(r.stderr)")
    }

    /// As lua -i, a million results print (the REPL's formatter overflowed its own Lua stack:
    /// "(repl):69: stack overflow", no id, ckrun's line).
    @Test func aMillionResultsPrint() throws {
        let r = try Ckrun.run(["repl"], stdin: "return table.unpack({}, 1, 990000)\nprint('next')\n", timeout: 60)
        #expect(r.stderr.isEmpty, "\(r.stderr.prefix(300))")
        #expect(r.stdout.utf8.count == 990_000 * 4 + 5)
        #expect(r.stdout.hasPrefix("nil\tnil\t") && r.stdout.hasSuffix("nil\nnext\n"))
    }

    /// The dot commands act on the app ckrun runs, whatever the global `app` holds now (they
    /// said "no app is running" once a script used `app` as its own variable).
    @Test func dotCommandsFindTheAppAfterTheGlobalIsRebound() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", """
            return ck.component("C", {scope = true, initialState = 0, inc = function(self) self:updateState(function(o) return o + 1 end) end,
              render = function(self, p, s) return ck.Button{title = "n=" .. s, action = self:action("inc")} end})
            """)
        let r = try Ckrun.run([app.path], stdin: "app = {name = 'mine'}\n.tap C\n.tree\n=app.name\n")
        #expect(r.stdout.contains("C state=1\n  Button <UIButton title=\"n=1\">"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("\"mine\"\n"))
        #expect(!r.stdout.contains("no app is running") && !r.stderr.contains("no app is running"))
    }

    @Test func appRunnerTakesStdinLinesUntilEOF() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", """
            ck.after(2, function() print("timer at", ck.now()) end)
            ck.run(function() return ck.Text{text = "hello"} end)
            """)
        let r = try Ckrun.run([app.path], stdin: "app.root.props.text\nlocal id = ck.after(1, function() print('later', ck.now()) end)\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "timer at\t2.0\n\"hello\"\nlater\t3.0\n")
    }
}

@Suite("The REPL on a terminal (tmux)")
struct ReplTerminalTests {
    static var tmux: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    final class Session {
        let socket = "ckrun-test-\(UUID().uuidString.prefix(8))"
        let tmux: URL

        init(command: String, width: Int = 120, height: Int = 40) throws {
            tmux = URL(fileURLWithPath: ReplTerminalTests.tmux!)
            _ = try Ckrun.runProcess(tmux, ["-L", socket, "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command],
                                 timeout: 10, captureOutput: false)
        }

        @discardableResult
        func run(_ args: [String]) throws -> String {
            try Ckrun.runProcess(tmux, ["-L", socket] + args, timeout: 10).stdout
        }

        func keys(_ keys: String...) throws { try run(["send-keys", "-t", "0"] + keys) }
        /// Types `text` literally (no key names), then Enter.
        func line(_ text: String) throws { try run(["send-keys", "-t", "0", "-l", text]); try keys("Enter") }
        func screen() throws -> String { try run(["capture-pane", "-p", "-t", "0"]) }
        /// Pastes `text` as a terminal does (tmux's `paste-buffer`: newlines sent as CR); with
        /// `bracketed`, inside the bracketed-paste marks if the program asked for them.
        func paste(_ text: String, bracketed: Bool) throws {
            try run(["set-buffer", "--", text])
            try run(["paste-buffer", "-t", "0"] + (bracketed ? ["-p"] : []))
        }

        /// Pastes `text` through a file (`load-buffer`): a command's argument is limited in size.
        func pasteLong(_ text: String) throws {
            let dir = try TemporaryDirectory()
            let file = try dir.write("paste.txt", text)
            try run(["load-buffer", file.path])
            try run(["paste-buffer", "-t", "0"])
        }

        /// Waits until the screen satisfies `condition` in two captures in a row, unchanged;
        /// returns the screen. One capture can fall between two writes of a redraw (the panes,
        /// then the status line) and meet the condition half drawn. A screen that keeps
        /// changing (a running clock) is returned as last seen meeting it.
        @discardableResult
        func wait(_ what: String, _ condition: (String) -> Bool) throws -> String {
            var met: String?
            for _ in 0..<300 {
                let s = try screen()
                if condition(s) {
                    if s == met { return s }
                    met = s
                } else {
                    met = nil
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            if let met { return met }
            let s = try screen()
            Issue.record("timed out waiting for \(what); screen:\n\(s)")
            return s
        }

        deinit { _ = try? Ckrun.runProcess(tmux, ["-L", socket, "kill-server"], timeout: 10, captureOutput: false) }
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func editingHistoryCompletionAndInterrupt() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let command = "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) repl"
        do {
            let s = try Session(command: command)
            try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
            // A typo fixed with Backspace and a cursor move.
            try s.keys("2 * 21x", "BSpace")
            try s.keys("Home", "4", "End", "Enter")
            try s.wait("the result") { $0.contains("\n42 * 21") || $0.contains("882") }
            // Completion of a field.
            try s.keys("string.fo", "Tab")
            try s.wait("the completion") { $0.contains("string.format") }
            try s.keys("('%d', 9)", "Enter")
            try s.wait("the formatted value") { $0.contains("\"9\"") }
            try s.keys("1 + 1", "Enter")
            try s.wait("the next result") { $0.split(separator: "\n").contains("2") }
            try s.keys("C-d")
            Thread.sleep(forTimeInterval: 0.3)
        }
        // libedit's format: a header line, then entries with spaces written as \040.
        let saved = try String(contentsOfFile: history, encoding: .utf8).replacingOccurrences(of: "\\040", with: " ")
        #expect(saved.contains("1 + 1"))
        #expect(saved.contains("42 * 21"))
        // History survives: Up recalls the last line in a new session.
        let s = try Session(command: command)
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try s.keys("Up")
        try s.wait("the recalled line") { $0.contains("> 1 + 1") }
    }

    // The terminal attack's break 03: after Ctrl-Z and `fg` the shell left the terminal cooked
    // (keys echoed, Left printed ^[[D) and nothing drew the prompt again.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func afterCtrlZAndFgTheLineIsEditedAgain() throws {
        let s = try Session(command: "env PS1='$ ' bash --norc --noprofile")
        try s.line("CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) repl")
        try s.wait("the prompt") { $0.contains("Ctrl-D to leave") && $0.contains("\n>") }
        try s.keys("x1")
        try s.wait("the line typed") { AppTerminalTests.lines($0).contains("> x1") }
        try s.keys("C-z")
        try s.wait("the job stopped") { $0.contains("Stopped") }
        try s.line("fg")
        try s.wait("the line drawn again") { AppTerminalTests.lines($0).filter { !$0.isEmpty }.last == "> x1" }
        try s.keys("23", "Left", "Left", "Q")
        let screen = try s.wait("the edit") { $0.contains("x1Q23") }
        #expect(AppTerminalTests.lines(screen).contains("> x1Q23"), "edited in place, not echoed by the terminal:\n\(screen)")
        #expect(!screen.contains("^[["), "arrows are keys, not echoed:\n\(screen)")
        try s.keys("C-u", "C-d")
    }

    // The terminal attack's break 02: a timer's error, printed above the line being typed, went
    // to standard output with it (`2>err.txt` missed it).
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func aTimersErrorGoesToStandardErrorBesideTheLine() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("err.lua", """
            local Boom = ck.component("Boom", { render = function() return ck.Text{text = "x"} end })
            ck.after(0.3, function() error("timer went bang") end)
            return Boom
            """)
        let errors = dir.url.appendingPathComponent("err.txt").path
        let s = try Session(command: "env PS1='$ ' bash --norc --noprofile")
        try s.line("CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path) 2>\(errors); echo done")
        try s.wait("the prompt") { $0.contains("mounted as app") && $0.contains("\n>") }
        Thread.sleep(forTimeInterval: 0.8)
        try s.keys("C-d")
        let screen = try s.wait("the run's end") { AppTerminalTests.lines($0).contains("done") }
        #expect(!screen.contains("timerFailed"), "not on standard output:\n\(screen)")
        #expect(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("[timerFailed]"))
    }

    // The terminal attack's break 05: the session that left last rewrote the shared history file
    // with its own lines alone.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func twoSessionsSharingTheHistoryKeepBothSessionsLines() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let command = "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) repl"
        let one = try Session(command: command), two = try Session(command: command)
        for s in [one, two] { try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } } }
        try one.line("a_from_one = 1")
        try two.line("b_from_two = 2")
        try one.line("c_from_one = 3")
        try two.line("d_from_two = 4")
        try one.wait("the last line run") { $0.contains("c_from_one = 3") }
        try two.wait("the last line run") { $0.contains("d_from_two = 4") }
        try one.keys("C-d")
        Thread.sleep(forTimeInterval: 0.3)
        try two.keys("C-d")
        Thread.sleep(forTimeInterval: 0.3)
        let saved = try String(contentsOfFile: history, encoding: .utf8).replacingOccurrences(of: "\\040", with: " ")
        for line in ["a_from_one = 1", "b_from_two = 2", "c_from_one = 3", "d_from_two = 4"] {
            #expect(saved.contains(line), "\(line) kept:\n\(saved)")
        }
        #expect(saved.components(separatedBy: "_HiStOrY_V2_").count == 2, "one header:\n\(saved)")
    }

    // The data attack's break 04: the cut to 1,000 entries rewrote the file without libedit's
    // header, after which libedit read nothing from it (Up recalled nothing, for good); and a
    // session appended the previous session's last entry again.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func aFullHistoryKeepsItsHeaderAndItsNewestEntries() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let full = "_HiStOrY_V2_\n" + (1...1000).map { "old_\($0)\\040=\\0401\n" }.joined()
        try full.write(toFile: history, atomically: true, encoding: .utf8)
        let command = "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) repl"
        let one = try Session(command: command)
        try one.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try one.line("old_1000 = 1")
        try one.line("fourth = 4")
        try one.wait("the line run") { $0.contains("fourth = 4") }
        try one.keys("C-d")
        Thread.sleep(forTimeInterval: 0.5)
        let lines = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "_HiStOrY_V2_", "the header kept: \(lines.prefix(2))")
        #expect(lines.count == 1001, "the newest 1,000 entries: \(lines.count) lines")
        #expect(lines.last == "fourth\\040=\\0404" || lines.last == "fourth = 4", "\(lines.suffix(2))")
        #expect(lines.filter { $0.hasPrefix("old_1000") }.count == 1, "a repeat of the last entry is not kept again")
        let two = try Session(command: command)
        try two.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try two.keys("Up")
        try two.wait("the newest entry recalled") { $0.contains("> fourth = 4") }
    }

    // The outside attack's break 16 (atk-new): another process holding the history file's lock
    // froze the prompt (flock waited) for as long as it held it.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func aHistoryLockHeldElsewhereDoesNotHoldThePrompt() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let fd = open(history, O_WRONLY | O_CREAT, 0o600)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let s = try Session(command: "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) repl")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try s.line("print('first' .. 1)")
        try s.line("print('second' .. 2)")
        try s.wait("both lines run while the lock is held") { $0.contains("first1") && $0.contains("second2") }
        let saved = (try? String(contentsOfFile: history, encoding: .utf8)) ?? ""
        #expect(saved.contains("second"), "appended without the lock: \(saved)")
    }

    // The data attack's break 01: a session ended by its terminal closing (SIGHUP) wrote none of
    // its lines to the history file; each entry is now appended as it is entered.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func aSessionWhoseTerminalClosedKeepsItsHistory() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let s = try Session(command: "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) repl")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try s.line("kept_after_hangup = 1")
        try s.wait("the line run") { $0.contains("kept_after_hangup = 1") }
        try s.run(["kill-server"])
        Thread.sleep(forTimeInterval: 0.5)
        let saved = (try? String(contentsOfFile: history, encoding: .utf8)) ?? ""
        #expect(saved.hasPrefix("_HiStOrY_V2_\n"), "\(saved)")
        #expect(saved.contains("kept_after_hangup"), "\(saved)")
    }

    // The terminal attack's break 09: `--watch` on a file broken at start ended at once, so the
    // fix saved next was never loaded. `ckrun repl FILE --watch` started the REPL, and each
    // change said "[usage] no app is running to reload": it now runs the file as at start.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"), arguments: ["", "repl "])
    func watchKeepsWatchingAFileBrokenAtStart(_ command: String) throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", "local C = ck.component(\"C\", { render = function( return end })\nreturn C\n")
        let s = try Session(command: "env PS1='$ ' bash --norc --noprofile")
        try s.line("CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(command)\(app.path) --watch; echo \"status $?\"")
        try s.wait("the error, then waiting") { $0.contains("[syntaxError]") || $0.contains("expected near") }
        try s.wait("waiting") { $0.contains("waiting for a change") }
        _ = try dir.write("app.lua", "local C = ck.component(\"C\", { render = function() return ck.Text{text = \"fixed\"} end })\nreturn C\n")
        try s.wait("the fix loaded") { $0.contains("C mounted as app") }
        try s.line("=app:dump()")
        try s.wait("the app running") { $0.contains("fixed") }
        try s.keys("C-d")
        try s.wait("the run's end") { $0.contains("status 0") }
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func replWatchUnderTheLiveViewStartsTheFixedApp() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", "local C = ck.component(\"C\", { render = function( return end })\nreturn C\n")
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) repl \(app.path) --watch --tui")
        try s.wait("the view, waiting, the error on the status line") {
            $0.contains("No app is mounted") && $0.contains("waiting for a change") && $0.contains("last error:")
        }
        _ = try dir.write("app.lua", "local C = ck.component(\"C\", { render = function() return ck.Text{text = \"fixed\"} end })\nreturn C\n")
        try s.wait("the fix started and drawn") { $0.contains("started app.lua: C mounted") && $0.contains("\nfixed") }
        try s.keys("q")
    }

    // The REPL attack's break 00: libedit's readline layer ended each line through a pointer to
    // a conversion buffer it had just reallocated (`rl_line_buffer`), so a pasted line of 8,191
    // bytes aborted with "malloc(): invalid next size", 600 CJK characters with a SIGSEGV on
    // Enter, and Tab after a 5,500-byte line the same way; the heap was corrupted from about
    // 1,020 bytes on (valgrind). Each line must arrive whole and the session go on; a paste goes
    // in a run of text at a time (libedit's one character a call took 20 s for 10,000 bytes).
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func longAndWidePastedLinesArriveWhole() throws {
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) repl; echo \"status $?\"; sleep 30")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        let pastes: [(line: String, length: Int)] = [
            ("s = \"" + String(repeating: "b", count: 10_000) + "\"", 10_000),
            ("s = \"" + String(repeating: "c", count: 100_000) + "\"", 100_000),
            ("s = \"" + String(repeating: "日", count: 600) + "\"", 1_800),
            ("s = \"" + String(repeating: "é", count: 1_500) + "\" .. s", 4_800),
        ]
        for (n, paste) in pastes.enumerated() {
            try s.pasteLong(paste.line + "\n")
            try s.line("=#s .. ' bytes, paste \(n)'")
            try s.wait("paste \(n) read whole") { $0.contains("\(paste.length) bytes, paste \(n)") || $0.contains("status ") }
        }
        // Lines pasted together are read one after another, each at its own prompt.
        try s.paste("function f()\nreturn 'in f'\nend\nt = {f(), #s}\nprint(t[1], t[2], 'pasted together')\n", bracketed: false)
        try s.wait("the pasted lines run") { $0.contains(/in f +4800 +pasted together/) || $0.contains("status ") }
        // Completion after a long line reads the line before the cursor.
        try s.paste("=\"" + String(repeating: "b", count: 5_500) + "\" and string.fo", bracketed: false)
        try s.keys("Tab")
        try s.keys("('%d', 7) .. ' completed'", "Enter")
        try s.wait("the completed line run") { $0.contains("7 completed") || $0.contains("status ") }
        try s.keys("C-d")
        let screen = try s.wait("the session's end") { $0.contains("status ") }
        #expect(screen.contains("status 0"), "\(screen)")
        #expect(!screen.contains("malloc") && !screen.contains("crashed"), "\(screen)")
    }

    // The safety attack's break 07: libedit read all of $CKRUN_HISTORY before the first prompt,
    // so /dev/zero filled memory and a FIFO no process writes blocked start-up for good.
    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func aHistoryThatIsNoRegularFileIsOffAndSaysSo() throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.url.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let s = try Session(command: "env CKRUN_HISTORY=\(fifo) \(Ckrun.executableURL.path) repl")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try s.wait("the note") { $0.contains("[cannotRead] cannot read the history file") && $0.contains("history is off this session") }
        try s.keys("1 + 1", "Enter")
        try s.wait("the result") { $0.split(separator: "\n").contains("2") }
        try s.keys("C-d")
    }
}
