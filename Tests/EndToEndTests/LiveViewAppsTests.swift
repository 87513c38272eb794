import CKTestHelpers
import Foundation
import Testing

/// Apps written as a React developer would, run live (the outsider's apps attack, second round:
/// 01, 06, 08, 09, 12, 14, 15): messages shown as made, the scroll kept across builds, a click
/// that is a press and a release on one view, views drawn by their class, a fixed reload's
/// error cleared, a repeated warning folded.
@Suite("Apps in the live view (tmux)")
struct LiveViewAppsTests {
    typealias Session = ReplTerminalTests.Session

    static func start(_ dir: TemporaryDirectory, _ source: String, width: Int = 100, height: Int = 30, flags: String = "") throws -> Session {
        _ = try dir.write("app.lua", source)
        return try Session(command: "cd \(dir.url.path) && " + LiveViewTerminalTests.ckrun("app.lua --tui \(flags)"), width: width, height: height)
    }

    static func statusLine(_ screen: String) -> String { LiveViewTerminalTests.lines(screen).last ?? "" }

    /// 12: the status line and the trace showed "[unhandledAction] Card): app.lua:1: … (made in
    /// its …" and rewrote an app's own message the same way.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func messagesAreShownAsMadeNeverRewritten() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local Card = ck.component("Card", {render = function(self, p) return ck.Button{title = "open", action = ck.action("openCard")} end})
            return ck.component("C", {scope = true, render = function(self) return ck.Stack{children = {
              ck.Button{title = "a", action = self:action("a")}, Card{}}} end,
              a = function() error("cache miss (made in the render of Widget); retry") end})
            """, width: 160)
        try s.wait("the buttons") { $0.contains("[▸a◂]") }
        try s.keys("Enter")
        let own = try s.wait("the handler's error") { $0.contains("last error:") }
        #expect(Self.statusLine(own).hasPrefix("last error: [actionFailed] app.lua:4: cache miss (made in the render of Widget); retry"), "\(own)")
        try s.keys("Tab")
        try s.keys("Enter")
        let unhandled = try s.wait("the unhandled action") { $0.contains("last error: [unhandledAction]") }
        #expect(Self.statusLine(unhandled).hasPrefix("last error: [unhandledAction] app.lua:1: nothing handles \"openCard\" from "), "\(unhandled)")
        #expect(Self.statusLine(unhandled).contains("(made in the render of Card)"), "\(unhandled)")
        #expect(!unhandled.contains("Card):") && !unhandled.contains("its render"), "\(unhandled)")
        try s.keys("q")
    }

    /// 01: a tap whose build fails: the render's message and line lead the status line, and the
    /// tap's trace says the build was rolled back.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aTapsFailedBuildSaysWhatWhereAndThatItWasRolledBack() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            return ck.component("Counter", {
              scope = true, initialState = 0,
              render = function(self, props, n)
                if n == 2 then error("unlucky two") end
                return ck.Button{title = "tapped " .. n, action = self:action("tapped")}
              end,
              tapped = function(self) self:updateState(function(n) return n + 1 end) end,
            })
            """)
        try s.wait("the button") { $0.contains("[▸tapped 0◂]") }
        try s.keys("Enter")
        try s.wait("the first tap") { $0.contains("[▸tapped 1◂]") }
        try s.keys("Enter")
        let screen = try s.wait("the failed build") { $0.contains("last error:") && $0.contains("rolled back") }
        #expect(Self.statusLine(screen).hasPrefix("last error: [buildFailed] app.lua:4: unlucky two — building generation 3"), "\(screen)")
        #expect(screen.contains("│  ✗ the build it queued"), "the trace says so:\n\(screen)")
        try s.keys("q")
    }

    /// 14: a log that grows on a timer keeps the page the user scrolled to.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aBuildKeepsThePageTheUserScrolledTo() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local Chat = ck.component("Chat", {
              scope = true, initialState = function() local m = {} for i = 1, 40 do m[i] = "old message " .. i end return m end,
              render = function(self, p, msgs)
                local rows = {}
                for i, m in ipairs(msgs) do rows[i] = ck.Text{key = i, text = ("[%02d] %s"):format(i, m)} end
                return ck.Stack{children = {ck.Button{title = "say hi", action = self:action("post")}, ck.Stack{children = rows}}}
              end,
              post = function(self) self:updateState(function(m) local r = {table.unpack(m)}; r[#r + 1] = "bot ping"; return r end) end,
            })
            ck.controller("ChatController", {didMount = function(self)
              local function tick() self.component:post(); ck.after(0.2, tick) end
              ck.after(0.2, tick)
            end})
            return Chat
            """)
        try s.wait("the log") { $0.contains("[▸say hi◂]") && $0.contains("[05] old") }
        try s.keys("NPage")
        let paged = try s.wait("the next page") { !$0.contains("say hi") }
        let first = LiveViewTerminalTests.lines(paged)[1]
        Thread.sleep(forTimeInterval: 1)
        let later = try s.screen()
        #expect(LiveViewTerminalTests.lines(later)[1] == first, "messages came, the page stayed:\n\(later)")
        #expect(!later.contains("say hi"), "\(later)")
        #expect(later.contains("Nothing focused"), "the panel says why nothing is focused:\n\(later)")
        try s.keys("q")
    }

    /// 15: a press on one button released over another taps neither; press and release on one
    /// button tap it. (xterm's X10 mouse reports: ESC [ M, then button, column, row, each +32.)
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aClickIsAPressAndAReleaseOnTheSameView() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            return ck.component("App", {scope = true, initialState = 3,
              render = function(self, p, n)
                return ck.Stack{children = {
                  ck.Text{text = n .. " items"},
                  ck.Stack{direction = "horizontal", spacing = 1, children = {
                    ck.Button{title = "add", action = self:action("add")},
                    ck.Button{title = "delete all", action = self:action("deleteAll")}}},
                }}
              end,
              add = function(self) self:updateState(function(n) return n + 1 end) end,
              deleteAll = function(self) print("deleteAll tapped"); self:updateState(0) end})
            """, height: 24)
        try s.wait("the buttons") { $0.contains("[▸add◂] [ delete all ]") }
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}[M ##"])   // press on [ add ] (column 3, row 3)
        Thread.sleep(forTimeInterval: 0.3)
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}[M#.#"])   // released on [ delete all ] (column 14)
        Thread.sleep(forTimeInterval: 0.5)
        let dragged = try s.screen()
        #expect(dragged.contains("3 items") && !dragged.contains("deleteAll tapped"), "\(dragged)")
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}[M ##"])   // press on [ add ] (column 3, row 3)
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}[M#$#"])   // released on it (column 4)
        try s.wait("the tap on add") { $0.contains("4 items") }
        // Both in one write (ncurses gives one KEY_MOUSE for the two, newest first).
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}[M ##\u{1B}[M#$#"])
        try s.wait("a quick click on add") { $0.contains("5 items") }
        try s.run(["send-keys", "-t", "0", "-l", "\u{1B}[M ##\u{1B}[M#.#"])
        Thread.sleep(forTimeInterval: 0.5)
        let quickDrag = try s.screen()
        #expect(quickDrag.contains("5 items") && !quickDrag.contains("deleteAll tapped"), "\(quickDrag)")
        try s.keys("q")
    }

    /// 09: an app's own component whose view is a UIButton or a UILabel draws as ck.Button and
    /// ck.Text do, and its button takes the focus and a tap.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func viewsDrawByTheirClassWhoeverMadeThem() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local MyButton = ck.component("MyButton", {
              view = function(self, p) return {class = "UIButton", attributes = {title = p.title, ck.onControl(p.onPress)}} end,
              actions = {onPress = {"Event"}},
            })
            local MyLabel = ck.component("MyLabel", {
              view = function(self, p) return {class = "UILabel", attributes = {text = p.text}} end,
            })
            return ck.component("App", {scope = true, initialState = 0, render = function(self, p, n)
              return ck.Stack{children = {MyLabel{text = "mine: n=" .. n}, MyButton{title = "more", onPress = self:action("inc")}}}
            end, inc = function(self) self:updateState(function(n) return n + 1 end) end})
            """)
        let screen = try s.wait("the views") { $0.contains("mine: n=0") }
        let lines = LiveViewTerminalTests.lines(screen)
        #expect(lines[1].hasPrefix("mine: n=0") && lines[2].hasPrefix("[▸more◂]"), "\(screen)")
        #expect(!screen.contains("┌─ UI"), "no debug boxes:\n\(screen)")
        try s.keys("Enter")
        try s.wait("the tap") { $0.contains("mine: n=1") }
        try s.keys("q")
    }

    /// 06: a `--watch` reload that succeeds clears the status line's error of a failed one.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aFixedReloadClearsItsError() throws {
        let dir = try TemporaryDirectory()
        let app = """
            return ck.component("C", {scope = true, initialState = 0,
              render = function(self, p, n) return ck.Button{title = TITLE, action = self:action("inc")} end,
              inc = function(self) self:updateState(function(n) return n + 1 end) end})
            """
        let s = try Self.start(dir, app.replacingOccurrences(of: "TITLE", with: "\"Count \" .. n"), flags: "--watch")
        try s.wait("the button") { $0.contains("[▸Count 0◂]") }
        _ = try dir.write("app.lua", app.replacingOccurrences(of: "TITLE", with: "\"Count \" .. .. n"))
        try s.wait("the syntax error") { $0.contains("last error: [syntaxError]") }
        _ = try dir.write("app.lua", app.replacingOccurrences(of: "TITLE", with: "\"Total \" .. n"))
        let fixed = try s.wait("the fixed reload") { $0.contains("[▸Total 0◂]") }
        #expect(Self.statusLine(fixed).hasSuffix("no errors"), "\(fixed)")
        try s.keys("q")
    }

    /// A `.reload` typed at the command line that succeeds clears a failed `--watch` reload's
    /// error too (it stayed on the status line): the file fails while a global says so, the
    /// command line clears the global and reloads.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aReloadTypedAtTheCommandLineClearsAFailedWatchReloadsError() throws {
        let dir = try TemporaryDirectory()
        let app = """
            if BROKEN then error("broken on purpose") end
            return ck.component("C", {render = function(self) return ck.Button{title = TITLE, action = ck.action("x")} end})
            """
        let s = try Self.start(dir, app.replacingOccurrences(of: "TITLE", with: "\"One\""), flags: "--watch")
        try s.wait("the button") { $0.contains("[▸One◂]") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "BROKEN = true"])
        try s.keys("Enter")
        try s.wait("the line run") { $0.contains("> BROKEN = true") }
        _ = try dir.write("app.lua", app.replacingOccurrences(of: "TITLE", with: "\"Two\""))
        try s.wait("the failed reload") { Self.statusLine($0).contains("last error:") && $0.contains("broken on purpose") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "BROKEN = nil"])
        try s.keys("Enter")
        try s.wait("the line run") { $0.contains("> BROKEN = nil") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", ".reload"])
        try s.keys("Enter")
        let fixed = try s.wait("the reload") { $0.contains("[▸Two◂]") }
        #expect(Self.statusLine(fixed).hasSuffix("no errors"), "\(fixed)")
        try s.keys("q")
    }

    /// 08: a warning every build ([scopeCollision], SPEC §3) is folded in the output pane into
    /// one line with a count, the first build's included (it stood apart, a line of its own).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aRepeatedWarningIsFoldedIntoACount() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.start(dir, """
            local Counter = ck.component("Counter", {scope = true, initialState = 0,
              render = function(self, p, n) return ck.Button{title = p.label .. " " .. n} end})
            local App = ck.component("App", {scope = true, initialState = 0,
              render = function(self, p, t) return ck.Stack{children = {ck.Text{text = "t=" .. t}, Counter{label = "a"}, Counter{label = "b"}}} end})
            ck.controller("AppController", {didMount = function(self)
              local n = 0
              local function tick() n = n + 1; print("tick"); self.component:updateState(n); if n < 5 then ck.after(0.1, tick) end end
              ck.after(0.1, tick) end})
            return App
            """, width: 200)
        let screen = try s.wait("the builds") { $0.contains("t=5") && $0.contains("(×") }
        // The first build's warning (written while the script started, before the view) is
        // counted with the five after it: one line.
        #expect(screen.components(separatedBy: "[scopeCollision]").count == 2, "\(screen)")
        #expect(screen.contains("(×6)"), "\(screen)")
        try s.keys("q")
    }
}
