import CKTestHelpers
import Foundation
import Testing

/// What went wrong, and where, is on the live view's screen (the outsider's apps attack, 05, 07,
/// 10, 14): the status line and the tap's trace lead with a handler's own message, the output
/// pane wraps long lines, the first mount's error is the last error, and a very deep focused
/// path is cut, not wrapped whole.
@Suite("Errors and long lines in the live view (tmux)")
struct LiveViewErrorsTests {
    typealias Session = ReplTerminalTests.Session

    static func start(_ dir: TemporaryDirectory, _ source: String, width: Int = 100, height: Int = 24, env: String = "") throws -> Session {
        _ = try dir.write("app.lua", source)
        // Run in its directory: messages name app.lua, not a long temporary path.
        return try Session(command: "cd \(dir.url.path) && env \(env) " + LiveViewTerminalTests.ckrun("app.lua --tui"), width: width, height: height)
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aHandlersOwnMessageLeadsTheStatusLineAndTheTrace() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local function validate(user) return user.name:len() > 0 end
            return ck.component("Boom", {
              scope = true, initialState = {},
              render = function(self) return ck.Button{title = "save", action = self:action("save")} end,
              save = function(self) return validate(self.state.user) end,
            })
            """)
        try s.wait("the button") { $0.contains("[▸save◂]") }
        try s.keys("Enter")
        let screen = try s.wait("the error") { $0.contains("last error:") }
        #expect(screen.contains("last error: [actionFailed] app.lua:1: attempt"), "\(screen)")
        #expect(screen.contains("│  [actionFailed] app.lua:1:"), "the trace too:\n\(screen)")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theOutputPaneWrapsALongErrorToItsAdvice() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            return ck.component("Card", {
              render = function(self) return ck.Button{title = "save", action = ck.action("saveCard")} end,
            })
            """, width: 80, height: 20)
        try s.wait("the button") { $0.contains("[▸save◂]") }
        try s.keys("Enter")
        let screen = try s.wait("the wrapped error") { $0.contains("unhandledAction") && $0.contains("ck.config.unhandledAction") }
        #expect(screen.contains("Define saveCard"), "\(screen)")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theFirstMountsErrorIsTheLastError() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local Leaf = ck.component("Leaf", {
              scope = function(p) return p.id end,
              render = function(self, p) return ck.Button{title = "leaf " .. p.id} end,
            })
            ck.controller("LeafController", { didMount = function(self) error("didMount fails") end })
            return ck.component("Tree", { render = function() return Leaf{id = 1} end })
            """)
        let screen = try s.wait("the app") { $0.contains("generation 1") }
        #expect(screen.contains("last error: [callbackFailed]"), "\(screen)")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aVeryDeepFocusedPathIsCutAndTheChainStillShows() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local Node; Node = ck.component("Node", {
              render = function(self, p)
                if p.d >= 400 then return ck.Button{title = "bottom", action = ck.action(function() end)} end
                return ck.View{class = "UIView", child = Node{d = p.d + 1}}
              end,
            })
            return ck.component("Deep", { render = function() return Node{d = 0} end })
            """)
        let screen = try s.wait("the deep tree") { $0.contains("generation 1") }
        #expect(screen.contains("Responder chain"), "the path left the chain its room:\n\(screen)")
        #expect(screen.contains("…"))
        try s.keys("q")
    }
}
