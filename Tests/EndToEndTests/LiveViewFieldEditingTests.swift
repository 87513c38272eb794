import CKTestHelpers
import Foundation
import Testing

/// A text field's readline keys (one table with the command line's), and the view's keys once
/// the screen shows that the field being typed in went (docs/tui.md, *Text fields*).
@Suite("The live view's text fields: editing keys and keys after a field went (tmux)")
struct LiveViewFieldEditingTests {
    static let has = LiveViewTextEntryTests.has

    /// Ctrl-W, Ctrl-Left, Alt-B, Ctrl-U, Ctrl-Right, Ctrl-A, Alt-D and Ctrl-K edit a field as
    /// at the command line (in a field they did nothing): each change is echoed by the app.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func readlineKeysEditAField() throws {
        let (s, dir) = try LiveViewTextEntryTests().start("""
            local F = ck.component("F", { scope = true, initialState = "",
              render = function(self, props, t)
                return ck.Stack{children = {ck.View{class = "UITextField", attributes = {text = t, placeholder = "p",
                  ck.onControl(self:action("changed", {"Event"}), {"editingChanged"})}}, ck.Text{text = "draft [" .. t .. "]"}}}
              end,
              changed = function(self, s, ev) self:updateState(ev.text) end,
            })
            return function() return F{} end
            """, waitFor: "[▸p")
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "one two three"])
        try s.wait("typed") { $0.contains("draft [one two three]") }
        try s.keys("C-w")
        try s.wait("Ctrl-W") { $0.contains("draft [one two ]") }
        try s.keys("C-Left")
        try s.run(["send-keys", "-t", "0", "-l", "X"])
        try s.wait("Ctrl-Left, then X") { $0.contains("draft [one Xtwo ]") }
        try s.keys("M-b")
        Thread.sleep(forTimeInterval: 0.2)
        try s.keys("C-u")
        try s.wait("Alt-B, Ctrl-U") { $0.contains("draft [Xtwo ]") }
        try s.keys("C-Right")
        try s.run(["send-keys", "-t", "0", "-l", "!"])
        try s.wait("Ctrl-Right, then !") { $0.contains("draft [Xtwo! ]") }
        try s.keys("C-a")
        try s.keys("M-d")
        try s.wait("Ctrl-A, Alt-D") { $0.contains("draft [! ]") }
        try s.keys("C-k")
        try s.wait("Ctrl-K") { $0.contains("draft []") }
        // Alt-Backspace: ESC then the erase key, which keypad mode reads as KEY_BACKSPACE; it was
        // taken as Escape, leaving the field (and closing the command line, its text lost: atk-new4 01).
        try s.run(["send-keys", "-t", "0", "-l", "aa bb"])
        try s.wait("typed again") { $0.contains("draft [aa bb]") }
        try s.keys("M-BSpace")
        try s.wait("Alt-Backspace") { $0.contains("draft [aa ]") }
        try s.keys("Escape")
        try s.wait("the view's keys") { $0.contains("q quit") }
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }

    /// A handler removes the field at the third character: once the screen shows it gone, a
    /// Space typed taps the button the focus went to and `q` quits (they were dropped as the
    /// field's typing until a key that is not text).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func keysTypedOnceTheFieldIsSeenGoneAreTheViews() throws {
        let (s, dir) = try LiveViewTextEntryTests().start("""
            local F = ck.component("F", { scope = true, initialState = {done = false},
              render = function(self, props, s)
                return ck.Stack{children = {
                  (not s.done) and ck.View{class = "UITextField", attributes = {placeholder = "3 chars",
                    ck.onControl(self:action("changed", {"Event"}), {"editingChanged"})}} or ck.Text{text = "done"},
                  ck.Button{title = "Delete", action = self:action("tap")}}}
              end,
              changed = function(self, s, ev) if #ev.text >= 3 then self:updateState({done = true}) end end,
              tap = function(self) print("TAPPED") end,
            })
            return function() return F{} end
            """, waitFor: "3 chars")
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "abc"])
        try s.wait("the field gone") { $0.contains("done") && $0.contains("[▸Delete◂]") }
        try s.keys("Space")
        try s.wait("Space tapped the focused button") { $0.contains("TAPPED") }
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }
}
