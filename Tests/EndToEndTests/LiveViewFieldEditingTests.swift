import CKTestHelpers
import Foundation
import Testing

/// The view's keys once the screen shows that the field being typed in went (docs/tui.md,
/// *Text fields*).
@Suite("The live view's text fields: keys after a field went (tmux)")
struct LiveViewFieldEditingTests {
    static let has = LiveViewTextEntryTests.has

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
