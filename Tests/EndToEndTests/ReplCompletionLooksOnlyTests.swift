import CKTestHelpers
import Foundation
import Testing

/// Tab completion only looks (docs/repl.md): a script's metamethods never run on a Tab, so a
/// `__pairs` or `__index` that never returns cannot hang the prompt (atk-safety4 02).
@Suite("REPL completion runs no script code (tmux)")
struct ReplCompletionLooksOnlyTests {
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aTabRunsNoMetamethod() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("hang_app.lua", """
            spins = 0
            local function spin() spins = spins + 1; while true do end end
            evil = setmetatable({plain = 1}, {__pairs = spin, __len = spin, __eq = spin,
              __index = setmetatable({inherited = 2}, {__index = spin})})
            deep = setmetatable({}, {__index = spin})
            _G.fake = setmetatable({}, {__name = "ck.Host", __index = spin})
            return ck.component("App", {render = function() return ck.Text{text = "x"} end})
            """)
        let s = try ReplTerminalTests.Session(
            command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path)")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        // Listing `evil`'s fields: its own and its __index table's, never its __pairs.
        try s.keys("evil.", "Tab", "Tab")
        try s.wait("the fields") { $0.contains("inherited") && $0.contains("plain") }
        try s.keys("C-u")
        // A missing field is not asked of an __index function, nor of a fake runtime object.
        try s.keys("deep.x.", "Tab", "C-u", "fake.root.", "Tab", "C-u", "evil:", "Tab", "C-u")
        try s.keys("app.ro", "Tab")
        try s.wait("a runtime object's field") { $0.contains("app.root") }
        try s.keys("C-u")
        try s.line("print('spun ' .. spins .. ' times')")
        try s.wait("the count") { $0.contains("spun 0 times") }
    }
}
