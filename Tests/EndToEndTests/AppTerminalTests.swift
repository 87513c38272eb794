import CKTestHelpers
import Foundation
import Testing

@Suite("An app session on a terminal (tmux)")
struct AppTerminalTests {
    typealias Session = ReplTerminalTests.Session

    /// Lines of the screen (tmux pads nothing at the end; blank lines dropped).
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func tapReloadFailCompleteAndTime() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let history = dir.url.appendingPathComponent("history").path
        let s = try Session(command: "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) \(app.path) --clock virtual")
        try s.wait("the banner") { $0.contains("counter.lua: Counter mounted as app (generation 1)") }
        try s.wait("the prompt") { Self.lines($0).contains(">") }

        // Tap twice, keep the controller, reload: state and controller kept, one host.
        try s.keys(".tap Button", "Enter")
        try s.keys(".tap Button", "Enter")
        try s.keys("k = ck.controllerOf(app.root)", "Enter")
        try s.keys(".reload", "Enter")
        try s.wait("the reload") { $0.contains("reloaded \(app.path): generation 4, state and controllers kept") }
        try s.keys("app.root.state, ck.controllerOf(app.root) == k, ck.stats().hosts", "Enter")
        try s.wait("state kept, one host") { Self.lines($0).contains("2\ttrue\t1") || $0.contains("2       true    1") }

        // A failing update is reported once; the next input works.
        try s.keys("app.root:updateState(13)", "Enter")
        try s.wait("the failure") { $0.contains("[buildFailed]") && $0.contains("unlucky thirteen") }
        try s.keys("print('after' .. 'wards')", "Enter")
        let screen = try s.wait("the next input") { Self.lines($0).contains("afterwards") }
        #expect(screen.components(separatedBy: "[buildFailed]").count == 2, "reported once:\n\(screen)")

        // Completion of a host's methods after `app:`.
        try s.keys("app:fi", "Tab")
        try s.wait("app:fi completes to find or findAll") { $0.contains("> app:find") }
        try s.keys("C-u")
        try s.keys("app.gen", "Tab")
        try s.wait("app.gen completes to generation") { $0.contains("> app.generation") }
        try s.keys("Enter")
        try s.wait("the generation") { Self.lines($0).contains("4") }

        // The virtual clock: paused, a timer waits for .advance.
        try s.keys(".pause", "Enter")
        try s.keys("_ = ck.after(2, function() app.root:updateState(40) end)", "Enter")
        try s.keys(".advance 1", "Enter")
        try s.wait("the first advance") { $0.contains("0 timers fired; time 1s (paused), 1 timer pending, next at 2s") }
        try s.keys("=app.root.state", "Enter")
        try s.keys(".advance 1", "Enter")
        try s.wait("the second advance") { $0.contains("1 timer fired; time 2s (paused)") }
        try s.keys("=app.root.state * 10", "Enter")
        try s.wait("the timer's update") { Self.lines($0).contains("400") }
        try s.keys("C-d")
    }

    /// Dot commands complete from their declarations: the names, then each argument by its
    /// placeholder (QUERY: the components' labels; `on|off`: the words).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func dotCommandsAndTheirArgumentsComplete() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path)")
        try s.wait("the prompt") { Self.lines($0).contains(">") }
        try s.keys(".ch", "Tab")
        try s.wait(".ch completes to .chain") { $0.contains("> .chain") }
        try s.keys("C-u")
        try s.keys(".chain Bu", "Tab")
        try s.wait("a QUERY completes to a component's label") { $0.contains("> .chain Button") }
        try s.keys("Enter")
        try s.wait("the completed command runs") { $0.contains("<Button gen 1> -> <Stack gen 1>") }
        try s.keys(".trace of", "Tab")
        try s.wait("on|off completes to its words") { $0.contains("> .trace off") }
        try s.keys("C-d")
    }

    /// A QUERY completes to a query `find` takes and that finds that component, inserted as it is
    /// (the outsider's React attack, 07: libedit inserted `Row\#7\#a`); since 0575464 a label is a query.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aQueryCompletesToWhatFindsItsComponent() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("inbox.lua", """
            local Row = ck.component("Row", {scope = function(p) return p.id end,
              render = function(self, p) return ck.Button{title = p.title, action = ck.action("open")} end})
            local Item = ck.component("Item", {scope = true, render = function() return nil end})
            return ck.component("Inbox", {render = function()
              return ck.Stack{children = {Row{id = 7, key = "a", title = "hello"}, Item{key = "x#y"}}} end,
              open = function() end})
            """)
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path)")
        try s.wait("the prompt") { Self.lines($0).contains(">") }
        try s.keys(".chain Ro", "Tab", "Enter")
        // Names are queries (Query reads Row#id#key and quoted ids), so completion gives the label.
        try s.wait("Row#7#a completed and found") { $0.contains("> .chain Row#7#a\n") && $0.contains("<Row#7#a gen 1> -> ") }
        try s.keys(".chain It", "Tab", "Enter")
        try s.wait("Item#\"x#y\" completed unescaped and found") { $0.contains("> .chain Item#\"x#y\"\n") && $0.contains("<Item#\"x#y\" gen 1> -> ") }
        #expect(!(try s.screen()).contains("\\#"), "nothing escaped")
        try s.keys("C-d")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func watchReloadsWhenTheAppsFilesChange() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("watched.lua", """
            local Label = require("label")
            return ck.component("Watched", {scope = true, initialState = 5,
              render = function(self, p, n) return ck.Text{text = Label.text .. n} end})
            """)
        try dir.write("label.lua", "return {text = 'first '}")
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path) --watch")
        try s.wait("the prompt") { Self.lines($0).contains(">") }
        try s.keys("app.root:updateState(6)", "Enter")
        try s.keys("=app:find('Text').props.text", "Enter")
        try s.wait("the first text") { $0.contains("\"first 6\"") }
        try s.keys("=app:find('Text')", "Space")   // a line being typed when the change comes
        try dir.write("label.lua", "return {text = 'second '}")
        try s.wait("the reload") { $0.contains("changed: label.lua") && $0.contains("reloaded \(app.path)") }
        try s.keys(".props.text", "Enter")
        try s.wait("the module loaded again, state kept") { $0.contains("\"second 6\"") }
        try s.keys("C-d")
    }

    /// A module in a subdirectory (`parts.row`, repl.md's own example) reloads the app when it
    /// changes (atk-new 15: only a file in the app's own directory did; `.reload` was needed).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func watchReloadsWhenAModuleInASubdirectoryChanges() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("deep.lua", """
            local row = require("parts.row")
            return ck.component("Deep", {render = function() return ck.Text{text = row.text} end})
            """)
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("parts"), withIntermediateDirectories: true)
        try dir.write("parts/row.lua", "return {text = 'r1'}")
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path) --watch")
        try s.wait("the prompt") { Self.lines($0).contains(">") }
        try dir.write("parts/row.lua", "return {text = 'r2'}")
        try s.wait("the reload") { $0.contains("changed: parts/row.lua") && $0.contains("reloaded \(app.path)") }
        try s.keys("=app:find('Text').props.text", "Enter")
        try s.wait("the module loaded again") { $0.contains("\"r2\"") }
        try s.keys("C-d")
    }
}
