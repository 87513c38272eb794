import CKTestHelpers
import Foundation
import Testing

/// A handler's `io.read` under --tui borrows the terminal (`ckstdin.c`): what a user can do to
/// that read, as a terminal would take it (terminal attack, second round).
@Suite("A read the live view lends the terminal to (tmux)")
struct LiveViewLentReadTests {
    typealias Session = ReplTerminalTests.Session

    /// Asks on Enter; shows the answer, "nil" at the end of input, "#N" for a long one.
    static func app(in dir: TemporaryDirectory) throws -> URL {
        try dir.write("ask.lua", """
            local R = ck.component("R", { scope = true, initialState = "none",
              render = function(self, props, state)
                return ck.Stack{children = { ck.Text{text = "got: " .. state},
                  ck.Button{title = "Ask", action = self:action("ask")} }}
              end,
              ask = function(self)
                io.write("name? "); io.flush()
                local l = io.read("l")
                local shown = l == nil and "nil" or #l > 40 and ("#" .. #l) or l
                self:updateState(function() return shown end)
              end,
            })
            return R
            """)
    }

    static func lines(_ screen: String) -> [String] { AppTerminalTests.lines(screen) }

    /// The view up, Ask tapped, the terminal lent with the question shown.
    static func lent(_ options: String = "", in dir: TemporaryDirectory) throws -> Session {
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(try app(in: dir).path) --tui \(options)"))
        try ask(s)
        return s
    }

    static func ask(_ s: Session, question: String = "name?") throws {
        try s.wait("the live view") { $0.contains("Responder chain") && $0.contains("got: ") }
        try s.keys("Enter")
        try s.wait("the terminal lent, the question shown") { $0.contains("lends the terminal") && $0.contains(question) }
    }

    /// The view back after the read, with `text` shown.
    @discardableResult
    static func back(_ s: Session, showing text: String) throws -> String {
        try s.wait("the view back, showing \(text)") { $0.contains("Responder chain") && $0.contains(text) }
    }

    /// Answers again, so the run is known to go on after what the test did.
    static func answersAgain(_ s: Session) throws {
        try ask(s)
        try s.line("again")
        try back(s, showing: "got: again")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theAnswerIsInTheOutputPaneAfterTheQuestion() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.line("bob")
        let screen = try Self.back(s, showing: "got: bob")
        #expect(screen.contains("name? bob"), "the pane shows the session as the terminal did:\n\(screen)")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func wideCharactersComeThroughWhole() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.line("日本語 é")
        let screen = try Self.back(s, showing: "got: 日本語 é")
        #expect(screen.contains("name? 日本語 é"), "\(screen)")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theTimeoutEndsTheTurnNotTheRun() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent("--timeout 1", in: dir)
        let screen = try Self.back(s, showing: "[timeout]")
        #expect(!screen.contains("the process ends"), "not the last resort:\n\(screen)")
        #expect(screen.contains("got: none"))
        try Self.answersAgain(s)
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func ctrlCStopsTheTurn() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.keys("C-c")
        try Self.back(s, showing: "[interrupted]")
        try Self.answersAgain(s)
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func ctrlDIsTheEndOfInput() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.keys("C-d")
        try Self.back(s, showing: "got: nil")
        try Self.answersAgain(s)
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aLongAnswerIsReadAndTheViewStaysInItsRows() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.run(["send-keys", "-t", "0", "-l", String(repeating: "a", count: 10_000)])
        try s.keys("Enter")
        let screen = try Self.back(s, showing: "got: #")
        #expect(Self.lines(screen).count <= 40, "\(screen)")
        #expect(Self.lines(screen).allSatisfy { $0.count <= 120 }, "\(screen)")
        #expect(screen.contains("name? aaaa"), "\(screen)")
        try Self.answersAgain(s)
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aResizeWhileLentIsDrawnAfter() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.run(["resize-window", "-t", "0", "-x", "80", "-y", "24"])
        Thread.sleep(forTimeInterval: 0.3)
        try s.line("sam")
        let screen = try Self.back(s, showing: "got: sam")
        #expect(!screen.contains("Interrupted"), "the read went on through the resize:\n\(screen)")
        let rows = Self.lines(screen)
        #expect(rows.count <= 24 && rows.allSatisfy { $0.count <= 80 }, "drawn at the new size:\n\(screen)")
        #expect(rows.last?.contains("generation") == true, "the status line on the last row:\n\(screen)")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func ctrlZAndFgGoOnWithTheRead() throws {
        let dir = try TemporaryDirectory()
        let app = try Self.app(in: dir)
        let s = try Session(command: "env PS1='$ ' bash --norc --noprofile")
        // Not `; echo`: bash goes on with a list past a job that stopped.
        try s.line(LiveViewTerminalTests.ckrun("\(app.path) --tui"))
        try Self.ask(s)
        try s.keys("C-z")
        try s.wait("the job stopped") { $0.contains("Stopped") }
        try s.line("fg")
        Thread.sleep(forTimeInterval: 0.3)
        try s.line("zed")
        try Self.back(s, showing: "got: zed")
        try Self.answersAgain(s)
        try s.keys("q")
        try s.wait("the shell's prompt") { Self.lines($0).filter { !$0.isEmpty }.last == "$" }
        try s.line("echo status $?")
        try s.wait("the shell back") { Self.lines($0).contains("status 0") }
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func ctrlBackslashEndsByTheSignalWithTheTerminalGivenBack() throws {
        let dir = try TemporaryDirectory()
        let app = try Self.app(in: dir)
        let script = try dir.write("run.sh", """
            trap '' INT QUIT
            stty -g > \(dir.url.path)/before
            env --default-signal=QUIT CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path) --tui < /dev/tty &
            wait $!; echo "status $?"
            stty -g > \(dir.url.path)/after
            if cmp -s \(dir.url.path)/before \(dir.url.path)/after; then echo "the terminal as it was"; else echo "the terminal changed"; fi
            sleep 30
            """)
        let s = try Session(command: "sh \(script.path)")
        try Self.ask(s)
        try s.keys("C-\\")
        let screen = try s.wait("the shell going on") { $0.contains("status ") && $0.contains("the terminal ") }
        #expect(Self.lines(screen).contains("status 131"), "ended by SIGQUIT:\n\(screen)")
        #expect(Self.lines(screen).contains("the terminal as it was"), "stty -g differs:\n\(screen)")
    }

    /// Before the view starts, what the script prints is held for the pane: its question was
    /// never seen, the answer typed blind, and the pane's history lacked it.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aReadAsTheScriptStartsShowsWhatItPrintedAndThePaneKeepsTheAnswer() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("start.lua", """
            print("welcome")
            io.write("who? "); io.flush()
            local who = io.read("l")
            return ck.component("R", { render = function() return ck.Text{text = "hello " .. tostring(who)} end })
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui"))
        try s.wait("the question on the terminal") { Self.lines($0).contains("welcome") && Self.lines($0).contains("who?") }
        try s.line("ann")
        let screen = try s.wait("the view") { $0.contains("── output") && $0.contains("hello ann") }
        #expect(Self.lines(screen).contains("welcome") && screen.contains("who? ann"), "the pane keeps the session:\n\(screen)")
        try s.keys("q")
    }

    /// A handler that reads line after line keeps the terminal: the view came back and left
    /// again between the lines (a flash, the notice again), and what the script printed between
    /// two reads was not on the terminal.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func linesReadOneAfterAnotherKeepTheTerminalAndShowWhatWasPrinted() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("multi.lua", """
            local R = ck.component("R", { scope = true, initialState = "none",
              render = function(self, props, state)
                return ck.Stack{children = { ck.Text{text = "got: " .. state},
                  ck.Button{title = "Ask", action = self:action("ask")} }}
              end,
              ask = function(self)
                local all = {}
                print("two questions")
                for i = 1, 2 do
                  io.write("q" .. i .. "? "); io.flush()
                  all[i] = tostring(io.read("l"))
                  print("ok " .. all[i])
                end
                self:updateState(function() return table.concat(all, ",") end)
              end,
            })
            return R
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui"))
        try Self.ask(s, question: "q1?")
        try s.line("a")
        let between = try s.wait("the second question") { $0.contains("q2?") }
        let shown = Self.lines(between)
        #expect(shown.contains("two questions") && shown.contains("q1? a") && shown.contains("ok a") && shown.contains("q2?"),
                "the session as a terminal shows it:\n\(between)")
        #expect(between.components(separatedBy: "lends the terminal").count == 2, "one notice:\n\(between)")
        try s.line("b")
        let screen = try Self.back(s, showing: "got: a,b")
        #expect(screen.contains("q2? b") && screen.contains("ok b"), "\(screen)")
        try s.keys("q")
    }

    /// The same read without the view (the line REPL on a terminal): it read C's stdin, whose
    /// read the signals restart, so `--timeout` ended the process by its last resort and Ctrl-C
    /// waited for Enter. On a terminal the script reads through ckrun's stream from the start.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: ["timeout", "Ctrl-C"])
    func aReadInTheLineReplStopsAsTheTurnDoes(_ stop: String) throws {
        let dir = try TemporaryDirectory()
        let app = try Self.app(in: dir)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path)" + (stop == "timeout" ? " --timeout 1" : "")))
        try s.wait("the prompt") { $0.contains("mounted as app") && Self.lines($0).last { !$0.isEmpty } == ">" }
        try s.line("x = io.read()")
        if stop == "Ctrl-C" {
            Thread.sleep(forTimeInterval: 0.3)
            try s.keys("C-c")
        }
        try s.wait("the turn stopped") { $0.contains(stop == "timeout" ? "[timeout] stdin:1:" : "[interrupted]") }
        try s.line("x = io.read()")
        // Typed once the read waits, as a user answers: keys typed ahead reach the terminal in
        // the line editor's modes, where Enter is no line end yet.
        Thread.sleep(forTimeInterval: 0.5)
        try s.line("later")
        try s.line("=x")
        let screen = try s.wait("the run going on") { $0.contains("\"later\"") }
        #expect(!screen.contains("the process ends"), "\(screen)")
        try s.keys("C-d")
    }

    static func twoButtons(in dir: TemporaryDirectory) throws -> URL {
        try dir.write("two.lua", """
            local R = ck.component("R", { scope = true, initialState = "none",
              render = function(self, props, state)
                return ck.Stack{children = { ck.Text{text = "got: " .. state},
                  ck.Button{title = "Ask", action = self:action("ask")},
                  ck.Button{title = "Other", action = self:action("other")} }}
              end,
              ask = function(self)
                io.write("name? "); io.flush()
                local l = io.read("l")
                self:updateState(function() return tostring(l) end)
              end,
              other = function(self) self:updateState(function() return "other tapped" end) end,
            })
            return R
            """)
    }

    /// The terminal taken back (after a lent read, after `fg`): endwin had left keypad transmit
    /// mode and ncurses set it again only at its next read of a key, so the first arrow key came
    /// in the cursor keys' normal mode and was lost (Enter then tapped the button still focused).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: ["a lent read", "Ctrl-Z and fg"])
    func theFirstArrowKeyAfterTheTerminalCameBackMovesTheFocus(_ after: String) throws {
        let dir = try TemporaryDirectory()
        let app = try Self.twoButtons(in: dir)
        let s = try Session(command: "env PS1='$ ' bash --norc --noprofile")
        try s.line(LiveViewTerminalTests.ckrun("\(app.path) --tui"))
        if after == "a lent read" {
            try Self.ask(s)
            try s.line("x")
            try Self.back(s, showing: "got: x")
        } else {
            try s.wait("the live view") { $0.contains("Responder chain") }
            try s.keys("C-z")
            try s.wait("the job stopped") { $0.contains("Stopped") }
            try s.line("fg")
            try Self.back(s, showing: "got: none")
        }
        Thread.sleep(forTimeInterval: 0.3)
        try s.keys("Down")
        try s.wait("the focus on Other") { Self.lines($0).contains { $0.hasPrefix("[▸Other◂]") } }
        try s.keys("Enter")
        try Self.back(s, showing: "got: other tapped")
        try s.keys("q")
    }

    /// Two lines pasted into a one-line answer: the second was keys to the view once it had the
    /// terminal again (its Enter tapped Ask again, a `q` in it quit).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func linesTypedForTheScriptAndNotReadAreNoViewKeys() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.lent(in: dir)
        try s.paste("first\nsecond quits\n", bracketed: false)
        let screen = try Self.back(s, showing: "got: first")
        #expect(!screen.contains("lends the terminal"), "no second read:\n\(screen)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try s.screen().contains("Responder chain"), "the view goes on")
        try Self.answersAgain(s)
        try s.keys("q")
    }
}
