import CKTestHelpers
import Foundation
import Testing

/// The live view's focus across builds stays on the same view (docs/tui.md), told apart from
/// same-named siblings of its parent (the outsider's React attack, live view 01: a keyed row's
/// second button lost the focus to its first when the row moved).
@Suite("The live view's focus across builds (tmux)")
struct LiveViewFocusTests {
    typealias Session = ReplTerminalTests.Session

    static let rows = """
        local Row = ck.component("Row", {
          scope = function(p) return p.id end,
          render = function(self, p)
            return ck.Stack{direction = "horizontal", spacing = 1, children = {
              ck.Text{text = "row " .. p.id},
              ck.Button{title = "edit", action = self:action("edit")},
              ck.Button{title = "up", action = self:action("up")},
            }}
          end,
          edit = function(self) print("edit " .. self.props.id) end,
          up = function(self) self.props.onUp:send(self, self.props.id) end,
          actions = { onUp = {"int"} },
        })
        return ck.component("List", {
          scope = true, initialState = {1, 2, 3},
          render = function(self, p, order)
            local rows = {}
            for i = 1, #order do rows[i] = Row{id = order[i], onUp = self:action("moveUp", {"int"})} end
            return ck.Stack{children = rows}
          end,
          moveUp = function(self, sender, id)
            self:updateState(function(o)
              local t = {table.unpack(o)}
              for i = 2, #t do if t[i] == id then t[i], t[i-1] = t[i-1], t[i] break end end
              return t
            end)
          end,
        })
        """

    /// Enter on row 3's [up] twice: the row climbs to the top, the focus riding on its [up].
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theFocusMovesWithAKeyedRowsSecondButton() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("rows.lua", Self.rows)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui"), width: 100, height: 30)
        try s.wait("the rows") { $0.contains("row 3 [ edit ] [ up ]") }
        try s.keys("Tab", "Tab", "Tab", "Tab", "Tab")
        try s.wait("row 3's up focused") { $0.contains("row 3 [ edit ] [▸up◂]") }
        try s.keys("Enter")
        let moved = try s.wait("row 3 moved up") { LiveViewTerminalTests.lines($0).dropFirst().first?.hasPrefix("row 1") == true && $0.contains("generation 2") }
        #expect(moved.contains("row 3 [ edit ] [▸up◂]"), "the focus stayed on row 3's up:\n\(moved)")
        try s.keys("Enter")
        let top = try s.wait("row 3 on top") { $0.contains("generation 3") }
        #expect(LiveViewTerminalTests.lines(top).dropFirst().first?.hasPrefix("row 3 [ edit ] [▸up◂]") == true, "\(top)")
        #expect(!top.contains("edit 3"), "no tap reached edit:\n\(top)")
        try s.keys("q")
    }
}
