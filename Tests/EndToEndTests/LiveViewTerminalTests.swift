import CKTestHelpers
import Foundation
import Testing

/// Issue 23, item 4: `ckrun app.lua --tui` draws the app full-screen in a real terminal (tmux)
/// and is driven with keys; the terminal is given back on every way out.
@Suite("The live view, --tui (tmux)")
struct LiveViewTerminalTests {
    typealias Session = ReplTerminalTests.Session

    static let songList = Ckrun.packageRoot.appendingPathComponent("Examples/song_list.lua").path

    static func ckrun(_ arguments: String) -> String {
        "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(arguments)"
    }

    static func lines(_ screen: String) -> [String] { AppTerminalTests.lines(screen) }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func showsTheExamplesViewsAndTabEnterTapsAButton() throws {
        let s = try Session(command: Self.ckrun("\(Self.songList) --tui"))
        let first = try s.wait("the views") { $0.contains("Responder chain") && $0.contains("Something") }
        let shown = Self.lines(first)
        // Each song a row (a horizontal stack, spacing 2), the rows a cell apart (spacing 1).
        #expect(shown.contains { $0.hasPrefix("Yesterday  [▸Download◂]") }, "the first button has the focus:\n\(first)")
        #expect(shown.contains { $0.hasPrefix("Let It Be  [ Download ]") })
        #expect(shown.contains { $0.hasPrefix("Something  [ Download ]") })
        #expect(first.contains("Focused: Button") && first.contains("→ SongController") && first.contains("→ HostingView"))
        #expect(first.contains("generation 1 · wall clock"))
        #expect(!first.contains("Last tap"))
        try s.keys("Tab", "Enter")
        let tapped = try s.wait("the tap's builds and its trace") {
            $0.contains("✓ SongController handled it") && $0.contains("Let It Be ✓")
        }
        #expect(tapped.contains("Last tap: [ Download ] (Button)"))
        #expect(tapped.contains("asked Song#2"), "the walk starts at the scope action's component")
        #expect(tapped.contains("got nothing (no parameters)"))
        #expect(tapped.contains("Song#2/Stack/"), "the focus moved to the second song")
        #expect(tapped.contains("downloaded \"Let It Be\""), "what the controller printed shows in the output pane")
        #expect(Self.lines(tapped).contains { $0.hasPrefix("Let It Be ✓  [▸…◂]") }, "the tapped button's title changed:\n\(tapped)")
        #expect(!tapped.contains("generation 1 ·"))
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theCommandLineRunsLuaAndDotCommandsInPlace() throws {
        let s = try Session(command: Self.ckrun("\(Self.songList) --tui --clock virtual"))
        try s.wait("the views") { $0.contains("Responder chain") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "for i = 1, 2 do"])
        try s.keys("Enter")
        try s.run(["send-keys", "-t", "0", "-l", "print(i * 21) end"])
        try s.keys("Enter")
        let loop = try s.wait("the loop's output") { Self.lines($0).contains("42") }
        #expect(Self.lines(loop).contains("21"), "an incomplete line kept the command line open:\n\(loop)")
        #expect(Self.lines(loop).contains(">> print(i * 21) end"))
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", ".tap Song#3 Button"])
        try s.keys("Enter")
        let tapped = try s.wait("the tap's build") { $0.contains("Something ✓") }
        #expect(Self.lines(tapped).contains("> .tap Song#3 Button"))
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "error('oops')"])
        try s.keys("Enter")
        try s.wait("the error on the status line") { $0.contains("last error: stdin:1: oops") }
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func resizingRedrawsForTheNewSize() throws {
        let s = try Session(command: Self.ckrun("\(Self.songList) --tui"))
        try s.wait("the views with the side panel") { $0.contains("Responder chain") }
        try s.run(["resize-window", "-t", "0", "-x", "60", "-y", "20"])
        let narrow = try s.wait("the narrow screen, without the side panel") { !$0.contains("Responder chain") && $0.contains("Something") }
        let rows = narrow.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.allSatisfy { $0.count <= 60 })
        #expect(Self.lines(narrow).last?.hasPrefix("generation 1") == true, "the status line at the new bottom:\n\(narrow)")
        try s.keys("q")
    }

    /// Colour only when the terminal has it and `NO_COLOR` is not set; focus shows either way.
    /// (tmux's sessions inherit the environment of whatever started the server: unset it.)
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: [
        ("-u NO_COLOR", true), ("NO_COLOR=1", false), ("TERM=vt100", false),
    ])
    func coloursOnlyWhereTheyAreWanted(environment: String, colours: Bool) throws {
        let s = try Session(command: "env \(environment) " + Self.ckrun("\(Self.songList) --tui"))
        try s.wait("the views") { $0.contains("Something") && $0.contains("Focused") }
        let styled = try s.run(["capture-pane", "-p", "-e", "-t", "0"])
        let colour = styled.range(of: #"\x{1B}\[[0-9;]*(3[0-7]|4[0-7]|38;5;[0-9]+)m"#, options: .regularExpression) != nil
        #expect(colour == colours, "colour codes \(colours ? "expected" : "not expected"):\n\(styled)")
        #expect(styled.contains("\u{1B}[1;7m") || styled.contains("\u{1B}[7m") || styled.contains(";7m"), "the focus in reverse video")
        #expect(try s.screen().contains("[▸Download◂]"))
        try s.keys("q")
    }

    /// A row's cells are stored whole (`ckcurses_row.c`): a combining mark stays on its letter,
    /// a wide character takes two cells and what follows it lands after them; a tab, and a row
    /// that reaches the last column (which ncurses' waddnstr still draws), show as before.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func rowsOfEveryKindOfCharacterLandInTheirCells() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("chars.lua", """
            return ck.component("Chars", {render = function()
              return ck.Stack{children = {
                ck.Text{text = "cafe\\u{301} | 日本 | · | end"},
                ck.Text{text = "tab\\there"},
                ck.Text{text = string.rep("x", 59) .. "#"},
                ck.Text{text = "last"},
              }}
            end})
            """)
        let s = try Session(command: Self.ckrun("\(app.path) --tui --clock virtual"), width: 60, height: 20)
        let screen = try s.wait("the rows") { $0.contains("last") }
        let shown = Self.lines(screen)
        #expect(shown.contains("café | 日本 | · | end"), "\(screen)")
        #expect(shown.contains("tab     here"), "\(screen)")
        #expect(shown.contains(String(repeating: "x", count: 59) + "#"), "\(screen)")
        #expect(shown.contains("last"), "\(screen)")
        try s.keys("q")
    }

    /// An emoji ZWJ sequence takes the cells ckrun counts in tmux too: tmux joins one into 2
    /// cells where ncurses counts 6, so the family's row pushed the side panel right (atk-apps3
    /// 02). The separator stands in one column on every row, in cells as wcwidth counts them.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anEmojiSequenceKeepsThePanelInItsColumn() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("family.lua", """
            return ck.component("Family", {render = function()
              return ck.Stack{children = {ck.Text{text = "plain row"}, ck.Text{text = "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} ok"},
                ck.Text{text = "flag \u{1F1EB}\u{1F1F7} e\u{301} \u{2764}\u{FE0F}\u{200D}\u{1F525} end"},
                ck.Button{title = "b", action = ck.action("x")}}}
            end})
            """)
        let s = try Session(command: Self.ckrun("\(app.path) --tui --clock virtual"), width: 100, height: 30)
        let screen = try s.wait("the rows") { $0.contains("end") && $0.contains("Focused") }
        // wcwidth of the characters above (glibc's): an emoji 2, a regional indicator 1, a joiner,
        // a selector and an accent 0.
        func cells(_ s: Unicode.Scalar) -> Int {
            switch s.value {
            case 0x1F1E6...0x1F1FF: 1
            case 0x1F300...0x1FAFF: 2
            case 0x300...0x36F, 0x200D, 0xFE0F: 0
            default: 1
            }
        }
        let columns = Self.lines(screen).dropFirst().prefix(4).compactMap { line -> Int? in
            guard let bar = line.firstIndex(of: "│") else { return nil }
            return line[..<bar].unicodeScalars.reduce(0) { $0 + cells($1) }
        }
        #expect(columns.count == 4 && Set(columns).count == 1, "separator columns \(columns):\n\(screen)")
        try s.keys("q")
    }

    /// Started by `timeout` (a process group of its own), the run is stopped by the terminal at
    /// its first read: it says why before, not a blank pane (atk-apps3 06).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: ["", " --tui"])
    func outsideTheForegroundGroupItSaysWhyBeforeItStops(option: String) throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("hi.lua", #"return ck.component("Hi", {render = function() return ck.Text{text = "hi"} end})"#)
        // A command of its own for timeout (not the pane's first process: a session leader keeps its group).
        let s = try Session(command: "timeout 20 " + Self.ckrun("\(app.path)\(option)") + "; sleep 5", width: 250, height: 10)
        let screen = try s.wait("the note") { $0.contains("foreground process group") }
        // The note leads with argv[0], a long path here: the pane wraps it.
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains("timeout --foreground"), "\(screen)")
    }

    /// At rest the wall clock's tick redraws the status row, never the tree: counted by the
    /// view (`ck.stats()`), not timed (atk-apps3 07: each second painted the whole tree, CPU in
    /// proportion to its depth at rest).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func atRestTheClocksTickPaintsNoTree() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("deep.lua", """
            return ck.component("Deep", {render = function()
              local c = ck.Button{title = "deep", action = ck.action("x")}
              for i = 1, 300 do c = ck.Stack{direction = (i % 2 == 0) and "horizontal" or "vertical", children = {c}} end
              return c
            end})
            """)
        let s = try Session(command: Self.ckrun("\(app.path) --tui"), width: 100, height: 30)
        try s.wait("the view") { $0.contains("deep") }
        try s.keys(":")
        try s.wait("the command line") { Self.lines($0).contains { $0.hasPrefix(">") } }
        try s.line(#"p0 = ck.stats(); ck.after(3.5, function() local n = ck.stats(); print(("rest%s: %d paints %d status"):format("ed", n.liveViewPaints - p0.liveViewPaints, n.liveViewStatusDraws - p0.liveViewStatusDraws)) end)"#)
        let screen = try s.wait("the count") { $0.contains("rested: ") }
        let words = Self.lines(screen).first { $0.contains("rested: ") }?.split(separator: " ") ?? []
        let paints = words.firstIndex(of: "paints").flatMap { Int(words[words.index(before: $0)]) }
        let status = words.firstIndex(of: "status").flatMap { Int(words[words.index(before: $0)]) }
        // The line's own redraw after it ran; then three seconds of ticks, each the status row alone.
        #expect(paints.map { $0 <= 1 } == true, "\(screen)")
        #expect(status.map { $0 >= 2 } == true, "\(screen)")
        try s.keys("Escape")
        try s.keys("q")
    }

    /// A terminal that cannot move the cursor (TERM=dumb) gets lines, not a view drawn nowhere
    /// (the outsider's React attack, 19: a blank screen, results unseen, a status line left behind).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aDumbTerminalReadsLinesInstead() throws {
        let s = try Session(command: "env TERM=dumb " + Self.ckrun("\(Self.songList) --tui"))
        // Its line begins with argv[0], the test's long path: joined where the pane wrapped it.
        try s.wait("the fallback") { $0.replacingOccurrences(of: "\n", with: "").contains("--tui: the terminal could not be drawn on (TERM=dumb); reading lines instead") }
        try s.keys("=6*7", "Enter")
        try s.wait("the line REPL's result") { Self.lines($0).contains("42") }
        try s.keys("C-d")
    }
}
