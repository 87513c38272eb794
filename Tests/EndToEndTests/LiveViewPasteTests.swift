import CKTestHelpers
import Foundation
import Testing

/// The outsider's React attack on the live view: text pasted into the `:` command line leaked
/// into the view's keys after a newline (`app:tap("X")\nq` quit the app). Pasted text is never
/// a view key (docs/tui.md): each pasted line runs as if typed, the rest stays in the line.
@Suite("A paste into the live view (tmux)")
struct LiveViewPasteTests {
    typealias Session = ReplTerminalTests.Session

    static let pad = """
        return ck.component("Pad", { scope = true, initialState = 0,
          render = function(self, p, n) return ck.Button{title = "tap " .. n, action = self:action("plus")} end,
          plus = function(self) self:updateState(function(n) return n + 1 end) end,
        })
        """

    /// The terminal type (`tmux-256color` has terminfo's bracketed-paste strings, `screen` has
    /// none) and whether tmux pastes with the marks.
    static let terminals: [(term: String, bracketed: Bool)] = [
        ("tmux-256color", true), ("tmux-256color", false), ("screen", true),
    ]

    func start(_ term: String) throws -> (Session, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let app = try dir.write("pad.lua", Self.pad)
        let s = try Session(command: "env TERM=\(term) " + LiveViewTerminalTests.ckrun("\(app.path) --tui"), width: 100, height: 30)
        try s.wait("the pad") { $0.contains("tap 0") }
        return (s, dir)
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: [0, 1, 2])
    func aPastedNewlineRunsTheLineAndTheRestStaysText(terminal: Int) throws {
        let (term, bracketed) = Self.terminals[terminal]
        let (s, dir) = try start(term)
        defer { withExtendedLifetime(dir) {} }
        try s.keys(":")
        try s.wait("the command line") { LiveViewTerminalTests.lines($0).contains { $0.hasPrefix(">") } }
        try s.paste("app:tap(\"Button\")\nprint(\"p\" .. 1)\nq", bracketed: bracketed)
        let after = try s.wait("both lines ran") { $0.contains("p1") && $0.contains("tap 1") }
        #expect(LiveViewTerminalTests.lines(after).contains("> q"), "the q stays in the command line (\(term), bracketed \(bracketed)):\n\(after)")
        // The app still runs: Escape closes the line, Enter taps, a typed q leaves.
        try s.keys("Escape")
        try s.wait("the line closed") { !LiveViewTerminalTests.lines($0).contains("> q") }
        try s.keys("Enter")
        try s.wait("the tap") { $0.contains("tap 2") }
        try s.keys("q")
    }

    /// Bracketed: a paste while the view has the keys opens the command line with it.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aPasteIntoTheViewGoesToTheCommandLine() throws {
        let (s, dir) = try start("tmux-256color")
        defer { withExtendedLifetime(dir) {} }
        try s.paste(" q", bracketed: true)
        let after = try s.wait("the command line") { LiveViewTerminalTests.lines($0).contains { $0.hasPrefix(">") } }
        #expect(LiveViewTerminalTests.lines(after).contains(">  q"), "\(after)")
        #expect(after.contains("tap 0"), "the space tapped nothing:\n\(after)")
        try s.keys("Escape")
        try s.keys("q")
    }

    /// Escape and a paste in one read (a quick Esc then paste, an ssh packet): the Escape, then
    /// the paste whole into the command line; its q quits nothing, its space taps nothing
    /// (atk-apps3 08: the paste's start mark was lost and its text ran as keys).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anEscapeThenAPasteInOneReadIsTheEscapeThenThePaste() throws {
        let (s, dir) = try start("tmux-256color")
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}\u{1B}[200~ x=1 q\u{1B}[201~"])
        let after = try s.wait("the command line") { LiveViewTerminalTests.lines($0).contains { $0.hasPrefix(">") } }
        #expect(LiveViewTerminalTests.lines(after).contains(">  x=1 q"), "\(after)")
        #expect(after.contains("tap 0"), "the space tapped nothing:\n\(after)")
        try s.keys("Escape")
        try s.wait("the line closed") { !LiveViewTerminalTests.lines($0).contains { $0.hasPrefix(">") } }
        try s.keys("q")
    }

    /// Escape then Down in one read while a field has the keys: the field lets go of them and
    /// Down moves on; nothing of the sequence is typed into the text (it was "Ada[B").
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anEscapeThenAnArrowInOneReadTypesNothing() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("field.lua", """
            return ck.component("F", { scope = true, initialState = "",
              render = function(self, p, s) return ck.Stack{children = {
                ck.View{class = "UITextField", attributes = {text = s, ck.onControl(self:action("ch", {"Event"}), {"editingChanged"})}},
                ck.Text{text = "state: [" .. s .. "]"} }} end,
              ch = function(self, _, ev) self:updateState(ev.text) end })
            """)
        let s = try Session(command: "env TERM=tmux-256color " + LiveViewTerminalTests.ckrun("\(app.path) --tui"), width: 100, height: 30)
        try s.wait("the field") { $0.contains("state: []") }
        try s.run(["send-keys", "-t", "0", "-l", "Ada"])
        try s.wait("the text") { $0.contains("state: [Ada]") }
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}\u{1B}[B"])
        // The view has the keys again: `:` opens the command line (in the field it would be typed).
        try s.run(["send-keys", "-t", "0", "-l", ":"])
        let after = try s.wait("the command line or the typed text") {
            LiveViewTerminalTests.lines($0).contains { $0.hasPrefix(">") } || !$0.contains("state: [Ada]")
        }
        #expect(after.contains("state: [Ada]"), "\(after)")
        try s.keys("Escape")
        try s.keys("q")
    }
}
