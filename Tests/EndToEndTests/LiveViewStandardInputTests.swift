import CKTestHelpers
import Foundation
import Testing

/// A handler that reads standard input under --tui gets the line typed, as without --tui: the
/// view lends the terminal in line mode for the read and takes it again (terminal attack, break
/// 06: Enter is a CR in the view's modes, the read waited for ever and the typed answer was lost).
@Suite("Standard input read under the live view (tmux)")
struct LiveViewStandardInputTests {
    typealias Session = ReplTerminalTests.Session

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aHandlersReadGetsTheLineTyped() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("readin.lua", """
            local R = ck.component("R", { scope = true, initialState = "none",
              render = function(self, props, state)
                return ck.Stack{children = { ck.Text{text = "got: " .. tostring(state)},
                  ck.Button{title = "Ask", action = self:action("ask")} }}
              end,
              ask = function(self)
                io.write("name? "); io.flush()
                local l = io.read("l")
                self:updateState(function() return l end)
              end,
            })
            return R
            """)
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(app.path) --tui --timeout 20"))
        try s.wait("the live view") { $0.contains("Responder chain") && $0.contains("got: none") }
        try s.keys("Enter")
        try s.wait("the terminal lent, the question shown") { $0.contains("lends the terminal") && $0.contains("name?") }
        try s.run(["send-keys", "-t", "0", "-l", "bob"])
        try s.keys("Enter")
        let screen = try s.wait("the answer built") { $0.contains("got: bob") }
        #expect(screen.contains("Responder chain"), "the view is back:\n\(screen)")
        try s.keys("q")
    }
}
