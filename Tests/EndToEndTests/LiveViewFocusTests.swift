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

/// The focus stays on the component whose view the build kept (the outsider's apps attack, 03):
/// an unkeyed button is its entry of the children list, `false` holes counted, as React keeps
/// `cond && X`; a lost focus goes to the first focusable view of the neighbouring branch.
@Suite("The live view's focus and optional siblings (tmux)")
struct LiveViewFocusHoleTests {
    typealias Session = ReplTerminalTests.Session

    static let form = """
        return ck.component("VForm", {scope = true, initialState = {error = false, submits = 0},
          render = function(self, p, s)
            return ck.Stack{children = {
              s.error and ck.Button{title = "Dismiss error", action = self:action("dismiss")},
              ck.Button{title = "Reset form", action = self:action("reset")},
              ck.Button{title = "Submit (" .. s.submits .. ")", action = self:action("submit")},
            }}
          end,
          submit = function(self) self:updateState(function(s) return {error = true, submits = s.submits + 1} end) end,
          dismiss = function(self) self:updateState(function(s) return {error = false, submits = s.submits} end) end,
          reset = function(self) print("RESET pressed") self:updateState({error = false, submits = 0}) end,
        })
        """

    /// Enter on Submit makes a "Dismiss error" button appear before it: the focus stays on
    /// Submit (not on "Reset form", now second), and the panel names it `Button[3]`.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theFocusStaysWhenAnOptionalSiblingAppearsBeforeIt() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("form.lua", Self.form)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui"), width: 100, height: 24)
        try s.wait("the form") { $0.contains("[ Submit (0) ]") }
        try s.keys("Tab")
        let first = try s.wait("Submit focused") { $0.contains("[▸Submit (0)◂]") }
        #expect(first.contains("VForm/Stack/Button[2]"), "the panel tells the second button apart:\n\(first)")
        try s.keys("Enter")
        let failed = try s.wait("the error button") { $0.contains("Dismiss error") && $0.contains("Submit (1)") }
        #expect(failed.contains("[▸Submit (1)◂]"), "the focus stayed on Submit:\n\(failed)")
        #expect(failed.contains("VForm/Stack/Button[3]"), "\(failed)")
        try s.keys("Enter")
        let again = try s.wait("a second submit") { $0.contains("Submit (2)") }
        #expect(!again.contains("RESET pressed"), "Enter reached Submit again, not Reset:\n\(again)")
        try s.keys("q")
    }

    /// A filter that removes the focused row (and the one after it) moves the focus to the first
    /// button of the row before, not to that row's last ("x") button.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aLostFocusGoesToTheNeighbouringRowsFirstButton() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("list.lua", """
            local Row = ck.component("Row", {
              render = function(self, p)
                return ck.Stack{direction = "horizontal", spacing = 1, children = {
                  ck.Text{text = p.label}, ck.Button{title = "+", action = p.bump}, ck.Button{title = "x", action = p.bump},
                }}
              end,
            })
            return ck.component("List", {
              scope = true, initialState = false,
              render = function(self, p, filtered)
                local rows = {}
                for _, name in ipairs({"Apple", "Banana", "Cherry", "Date"}) do
                  if not filtered or name:find("an") then
                    rows[#rows + 1] = Row{key = name, label = name, bump = self:action("bump")}
                  end
                end
                return ck.Stack{children = rows}
              end,
              bump = function() end,
              filter = function(self) self:updateState(true) end,
            })
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui"), width: 100, height: 24)
        try s.wait("the rows") { $0.contains("Date [ + ] [ x ]") }
        try s.keys("Tab", "Tab", "Tab", "Tab")
        try s.wait("Cherry's + focused") { $0.contains("Cherry [▸+◂] [ x ]") }
        try s.keys(":")
        try s.line("app.root:filter()")
        let filtered = try s.wait("the filter") { !$0.contains("Cherry") && $0.contains("generation 2") }
        #expect(filtered.contains("Banana [▸+◂] [ x ]"), "the focus went to Banana's first button:\n\(filtered)")
        try s.keys("q")
    }

    /// A lost unkeyed button's neighbour is found by its entry of the children list, holes
    /// counted, as its place is (atk-new2 06): the focus landed on the child at Submit's index
    /// among the children shown, so it "followed" Submit moved from entry 6 to 11 (a new view),
    /// and when entry 11 went it fell on "row b" instead of the Submit now at entry 6.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aLostFocusLooksForItsNeighbourByEntry() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("gaps.lua", """
            local F = ck.component("F", {scope = true, initialState = {rows = {"a", "b", "c"}}, render = function(self)
              local s, ch = self.state, {}
              ch[1] = s.err and ck.Button{title = "Dismiss", action = ck.action(function() end)}
              ch[2] = s.err and ck.Text{text = "oops"}
              for i, r in ipairs(s.rows) do ch[2 + i] = ck.Button{title = "row " .. r, action = ck.action(function() end)} end
              ch[#s.rows + 3 + (s.gap or 0)] = ck.Button{title = "Submit", action = ck.action(function() end)}
              return ck.Stack{children = ch}
            end})
            return function() return F{} end
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui --clock virtual"), width: 100, height: 24)
        try s.wait("the rows") { $0.contains("[ Submit ]") }
        try s.keys("Tab", "Tab", "Tab")
        try s.wait("Submit focused (entry 6)") { $0.contains("[▸Submit◂]") }
        try s.keys(":")
        try s.line(#"app.root:updateState({rows = {"a", "b", "c"}, gap = 5}, "sync")"#)
        let moved = try s.wait("Submit at entry 11") { $0.contains("generation 2") }
        #expect(moved.contains("[▸row c◂]") && moved.contains("[ Submit ]"), "the focus went to entry 5, before Submit's old entry:\n\(moved)")
        try s.keys("Tab")
        try s.wait("Submit focused (entry 11)") { $0.contains("[▸Submit◂]") }
        try s.keys(":")
        try s.line(#"app.root:updateState({err = true, rows = {"a", "b", "c"}}, "sync")"#)
        let back = try s.wait("entry 11 gone") { $0.contains("generation 3") && $0.contains("oops") }
        #expect(back.contains("[▸Submit◂]") && back.contains("[ row b ]"), "the focus went to Submit at entry 6, the nearest before 11:\n\(back)")
        try s.keys("q")
    }

    /// A focused view that stays but takes no focus any more (its onTap made a no-op) hands the
    /// focus on by the same rule: its own branch, then the nearest before it. Before, it went to
    /// whatever stood at its old place in the focus order ("last").
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aViewThatNoLongerTakesFocusHandsItOnByEntry() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("toggle.lua", """
            local F = ck.component("F", {scope = true, initialState = {on = true}, render = function(self)
              local a = ck.action(function() end)
              return ck.Stack{children = {
                ck.Button{title = "first", action = a},
                ck.View{class = "UIView", attributes = {ck.onTap(self.state.on and a)}},
                ck.Button{title = "last", action = a},
              }}
            end})
            return function() return F{} end
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui --clock virtual"), width: 100, height: 24)
        try s.wait("the views") { $0.contains("[ last ]") }
        try s.keys("Tab")
        try s.wait("the tappable view focused") { $0.contains("▸UIView◂") }
        try s.keys(":")
        try s.line(#"app.root:updateState({on = false}, "sync")"#)
        let after = try s.wait("its tap gone") { $0.contains("on tap: nothing") }
        #expect(after.contains("[▸first◂]") && after.contains("[ last ]"), "the focus went to the nearest before it:\n\(after)")
        try s.keys("q")
    }
}

/// The outsider's React attack, live view 04: after `app:unmount()` (and `app:destroy()`) typed
/// at the command line, the old views stayed drawn, focused and tappable.
@Suite("The live view of an unmounted or destroyed app (tmux)")
struct LiveViewUnmountTests {
    typealias Session = ReplTerminalTests.Session

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func unmountingOrDestroyingTheAppClearsTheViews() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("pair.lua", """
            return ck.component("Pair", {
              scope = true, initialState = 0,
              render = function(self, p, n)
                return ck.Stack{direction = "horizontal", spacing = 1, children = {
                  ck.Text{text = "n=" .. n}, ck.Button{title = "plus", action = self:action("plus")},
                }}
              end,
              plus = function(self) self:updateState(function(n) return n + 1 end) end,
            })
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui"), width: 100, height: 24)
        try s.wait("the views") { $0.contains("n=0 [▸plus◂]") }
        try s.keys(":")
        try s.line("app:unmount()")
        let unmounted = try s.wait("the unmounted app") { $0.contains("The app is not mounted") }
        #expect(!unmounted.contains("[▸plus◂]"), "no view is left to focus:\n\(unmounted)")
        try s.keys(":")
        try s.line("app:mount()")
        try s.wait("the app again") { $0.contains("n=0 [▸plus◂]") }
        try s.keys(":")
        try s.line("app:destroy()")
        let destroyed = try s.wait("the destroyed app") { $0.contains("host was destroyed") }
        #expect(!destroyed.contains("plus"), "\(destroyed)")
        try s.keys("q")
    }
}
