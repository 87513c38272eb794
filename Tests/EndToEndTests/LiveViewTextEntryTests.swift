import CKTestHelpers
import Foundation
import Testing

/// Text entry in the live view (docs/tui.md, *Text fields*; two outside attackers' apps, 04: a
/// `UITextField` could not take the focus and typed keys went nowhere).
@Suite("The live view's text fields (tmux)")
struct LiveViewTextEntryTests {
    typealias Session = ReplTerminalTests.Session

    /// A controlled field (its text the state's draft, echoed below it), an uncontrolled one
    /// whose typing starts a timer that rebuilds, and a switch with only `valueChanged`.
    static let form = """
        local Form = ck.component("Form", {scope = true, initialState = {draft = "", ticks = 0},
          render = function(self, p, s)
            return ck.Stack{children = {
              ck.View{class = "UITextField", attributes = {text = s.draft, placeholder = "your name",
                ck.onControl(self:action("changed", {"Event"}), {"editingChanged"}),
                ck.onControl(self:action("log", {"Event"}), {"editingDidBegin", "editingDidEnd", "editingDidEndOnExit"})}},
              ck.Text{text = "draft: " .. s.draft .. "|"},
              ck.View{class = "UITextField", attributes = {placeholder = "free",
                ck.onControl(self:action("later", {"Event"}), {"editingChanged"}),
                ck.onControl(self:action("log", {"Event"}), {"editingDidBegin", "editingDidEnd"})}},
              ck.View{class = "UISwitch", attributes = {ck.onControl(self:action("toggled", {"Event"}), "valueChanged")}},
              ck.Text{text = "ticks " .. s.ticks},
            }}
          end,
          changed = function(self, sender, ev)
            self:updateState(function(s) return {draft = ev.text, ticks = s.ticks} end)
          end,
          later = function(self, sender, ev)
            print("typed [" .. ev.text .. "]")
            ck.after(0.2, function() self:updateState(function(s) return {draft = s.draft, ticks = s.ticks + 1} end) end)
          end,
          log = function(self, sender, ev) print(ev.type .. " [" .. tostring(ev.text) .. "]") end,
          toggled = function(self, sender, ev) print("toggled " .. ev.type) end,
        })
        return Form
        """

    /// ckrun started by a shell that prints its exit status.
    func start() throws -> (Session, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let app = try dir.write("form.lua", Self.form)
        let script = try dir.write("run.sh", """
            env TERM=tmux-256color CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(app.path) --tui
            echo "status $?"
            sleep 30
            """)
        let s = try Session(command: "sh \(script.path)", width: 100, height: 30)
        try s.wait("the form") { $0.contains("your name") && $0.contains("ticks 0") }
        return (s, dir)
    }

    static func has(_ screen: String, _ line: String) -> Bool { LiveViewTerminalTests.lines(screen).contains(line) }

    /// The first field has the focus: typing, Backspace and a paste (`q`, `:` and Space are
    /// text) each send editingChanged with the whole text, which the app echoes; Enter sends
    /// editingDidEndOnExit; Esc gives the keys back to the view, and `q` leaves with status 0.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func typingBackspaceAPasteAndEnterReachAControlledField() throws {
        let (s, dir) = try start()
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "ab"])
        var screen = try s.wait("ab typed") { $0.contains("draft: ab|") }
        #expect(screen.contains("[▸ab"), "the field shows what was typed:\n\(screen)")
        try s.keys("BSpace")
        try s.wait("b deleted") { $0.contains("draft: a|") }
        try s.paste(" q:x", bracketed: true)
        try s.wait("the paste, one change") { $0.contains("draft: a q:x|") }
        try s.run(["send-keys", "-t", "0", "-l", "日本"])
        try s.wait("wide characters") { $0.contains("draft: a q:x日本|") && $0.contains("[▸a q:x日本") }
        try s.keys("Enter")
        screen = try s.wait("editingDidEndOnExit") { Self.has($0, "editingDidEndOnExit [a q:x日本]") }
        #expect(!screen.contains("status"), "q typed into the field did not quit:\n\(screen)")
        try s.keys("Escape")
        // Apart: an Escape and a key read together are Alt and the key.
        try s.wait("the view's keys again") { $0.contains("q quit") && $0.contains("[▸a q:x日本") }
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }

    /// Tab moves the focus from field to field (editingDidEnd, editingDidBegin); typing in the
    /// uncontrolled field keeps its text across the timer's rebuilds; Tab reaches the switch,
    /// whose Enter sends valueChanged.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func focusMovesTellTheFieldsAndAnUncontrolledFieldKeepsItsText() throws {
        let (s, dir) = try start()
        defer { withExtendedLifetime(dir) {} }
        try s.keys("Tab")
        try s.wait("editingDidEnd then editingDidBegin") { Self.has($0, "editingDidEnd []") && Self.has($0, "editingDidBegin []") }
        try s.run(["send-keys", "-t", "0", "-l", "xy"])
        let screen = try s.wait("two rebuilds by the timers") { $0.contains("ticks 2") && Self.has($0, "typed [xy]") }
        #expect(screen.contains("[▸xy"), "the uncontrolled field kept its text across the rebuilds:\n\(screen)")
        #expect(screen.contains("draft: |"), "the other field's state is untouched:\n\(screen)")
        try s.keys("Tab")
        try s.wait("the field left") { Self.has($0, "editingDidEnd [xy]") }
        try s.keys("Enter")
        try s.wait("the switch") { Self.has($0, "toggled valueChanged") }
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }

    /// ckrun running `app` in a 100×30 terminal, its exit status printed after it.
    func start(_ app: String, waitFor: String, term: String = "tmux-256color") throws -> (Session, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", app)
        let script = try dir.write("run.sh", """
            env TERM=\(term) CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(file.path) --tui
            echo "status $?"
            sleep 30
            """)
        let s = try Session(command: "sh \(script.path)", width: 100, height: 30)
        try s.wait("the app") { $0.contains(waitFor) }
        return (s, dir)
    }

    /// atk-text 08: a handler that removes the focused field (auto-submit at 3 characters) does
    /// not turn the rest of the typing into view keys: the space does not tap the button the
    /// focus went to, the `q` does not quit; Tab then Space does tap.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func typingCarriedOnAfterTheFieldWentIsNotViewKeys() throws {
        let (s, dir) = try start("""
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
        try s.run(["send-keys", "-t", "0", "-l", "abc xq"])
        var screen = try s.wait("the field gone") { $0.contains("done") && !$0.contains("3 chars") }
        Thread.sleep(forTimeInterval: 0.8)
        screen = try s.screen()
        #expect(!screen.contains("TAPPED") && !screen.contains("status"), "typed text acted as view keys:\n\(screen)")
        try s.keys("Tab")
        try s.keys("Space")
        try s.wait("a tap after a key that is not text") { $0.contains("TAPPED") }
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }

    /// atk-text 02, 11, 12: a controlled field whose handler rejects digits shows the app's text
    /// (not the rejected key); a CRLF pasted (CR CR from the terminal) is one space; Ctrl-D in a
    /// field with text deletes under the cursor, and on an empty field leaves.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aControlledFieldShowsTheAppsTextAndCtrlDDeletes() throws {
        let (s, dir) = try start("""
            local F = ck.component("F", { scope = true, initialState = {t = ""},
              render = function(self, props, s)
                return ck.Stack{children = {ck.View{class = "UITextField", attributes = {text = s.t, placeholder = "p",
                  ck.onControl(self:action("changed", {"Event"}), {"editingChanged"})}}, ck.Text{text = "state [" .. s.t .. "]"}}}
              end,
              changed = function(self, s, ev) print("ev [" .. ev.text .. "]"); self:updateState({t = (ev.text:gsub("%d", ""))}) end,
            })
            return function() return F{} end
            """, waitFor: "state []")
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "ab1"])
        var screen = try s.wait("the digit rejected") { Self.has($0, "ev [ab1]") }
        Thread.sleep(forTimeInterval: 0.3)
        screen = try s.screen()
        #expect(screen.contains("[▸ab ") && screen.contains("state [ab]"), "the field shows the app's text:\n\(screen)")
        try s.run(["send-keys", "-t", "0", "-l", "c"])
        try s.wait("the next event starts from the app's text") { Self.has($0, "ev [abc]") }
        try s.paste("x\r\ny", bracketed: true)
        try s.wait("a CRLF is one space") { Self.has($0, "ev [abcx y]") }
        try s.keys("Home")
        try s.keys("C-d")
        screen = try s.wait("Ctrl-D deleted the a") { Self.has($0, "ev [bcx y]") }
        #expect(!screen.contains("status"), "Ctrl-D in a field with text did not leave:\n\(screen)")
        for _ in 0..<5 { try s.keys("C-d") }
        try s.wait("the field empty") { $0.contains("state []") }
        try s.keys("C-d")
        try s.wait("Ctrl-D on an empty field leaves") { Self.has($0, "status 0") }
    }

    /// A field that logs its editing events with its name, "A" or "B".
    static func logged(_ name: String) -> String {
        """
        ck.View{class = "UITextField", attributes = {placeholder = "\(name)",
          ck.onControl(self:action("log\(name)", {"Event"}), {"editingDidBegin", "editingDidEnd", "editingDidEndOnExit"})}}
        """
    }

    /// atk-text 03, 04: Begin and End pair up. The field focused at the start gets its Begin
    /// with the first key; Enter sends EndOnExit then End and gives the keys back; Tab to B
    /// begins B only; Tab back ends B and begins A; Esc ends A; `q` then quits.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func editingBeginAndEndPairUp() throws {
        let (s, dir) = try start("""
            local F = ck.component("F", { scope = true,
              render = function(self) return ck.Stack{children = {\(Self.logged("A")), \(Self.logged("B"))}} end,
              logA = function(self, sender, ev) print("A " .. ev.type .. " [" .. ev.text .. "]") end,
              logB = function(self, sender, ev) print("B " .. ev.type .. " [" .. ev.text .. "]") end,
            })
            return function() return F{} end
            """, waitFor: "[▸A")
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "x"])
        try s.wait("A begins with the first key") { Self.has($0, "A editingDidBegin []") }
        try s.keys("Enter")
        try s.wait("Enter ends A") { Self.has($0, "A editingDidEndOnExit [x]") && Self.has($0, "A editingDidEnd [x]") }
        try s.keys("Tab")
        try s.wait("B begins") { Self.has($0, "B editingDidBegin []") }
        try s.keys("Tab")
        try s.wait("B ends, A begins again") { Self.has($0, "B editingDidEnd []") && Self.has($0, "A editingDidBegin [x]") }
        try s.keys("Escape")
        let screen = try s.wait("Esc ends A") { LiveViewTerminalTests.lines($0).filter { $0 == "A editingDidEnd [x]" }.count == 2 }
        let lines = LiveViewTerminalTests.lines(screen)
        #expect(lines.filter { $0.contains("editingDidBegin [") }.count == 3, "\(screen)")
        #expect(lines.filter { $0.contains("editingDidEnd [") }.count == 3, "one End after each Begin:\n\(screen)")
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }

    /// atk-text 01, 07: a 200 KB bracketed paste is one change; a text attribute that is not
    /// UTF-8 is shown with U+FFFD, never as a Lua literal, and edited keeping its bytes: `caf\xe9`
    /// and `!` are 5 bytes (not U+FFFD's 7, not the literal's 10).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aLargePasteIsOneChangeAndBytesAreNoLiteral() throws {
        let (s, dir) = try start("""
            local F = ck.component("F", { scope = true,
              render = function(self)
                return ck.Stack{children = {ck.View{class = "UITextField", attributes = {placeholder = "p",
                  ck.onControl(self:action("changed", {"Event"}), {"editingChanged"})}},
                  ck.View{class = "UITextField", attributes = {text = "caf\\xe9",
                  ck.onControl(self:action("changed", {"Event"}), {"editingChanged"})}}}}
              end,
              changed = function(self, sender, ev)
                print("len " .. #ev.text)
                if #ev.text < 10 then print("bytes " .. ev.text:gsub(".", function(c) return ("%02x"):format(c:byte()) end)) end
              end,
            })
            return function() return F{} end
            """, waitFor: "[▸p")
        defer { withExtendedLifetime(dir) {} }
        #expect(try !s.screen().contains("233"), "no Lua literal")
        let paste = try TemporaryDirectory()
        let file = try paste.write("paste.txt", String(repeating: "0123456789", count: 20_000))
        try s.run(["load-buffer", file.path])
        try s.run(["paste-buffer", "-p", "-t", "0"])
        var screen = try s.wait("the paste") { Self.has($0, "len 200000") }
        #expect(LiveViewTerminalTests.lines(screen).filter { $0.hasPrefix("len ") }.count == 1, "one change:\n\(screen)")
        try s.keys("Tab")
        try s.run(["send-keys", "-t", "0", "-l", "!"])
        screen = try s.wait("the bytes edited") { $0.contains("bytes ") }
        #expect(Self.has(screen, "bytes 636166e921"), "the bytes not edited are kept:\n\(screen)")
        #expect(screen.contains("[▸caf\u{FFFD} "), "a controlled field shows its text attribute again:\n\(screen)")
        try s.keys("Escape")
        try s.wait("the view's keys") { $0.contains("q quit") }
        try s.keys("q")
        try s.wait("the exit") { Self.has($0, "status 0") }
    }

    /// atk-text 10 (a guard: the attack's tmux set TERM=tmux-256color, whose Home is ESC [1~):
    /// under TERM=xterm-256color, ESC O H and ESC O F (terminfo's khome, kend) move the cursor.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func xtermsHomeAndEndMoveTheCursor() throws {
        let (s, dir) = try start("""
            local F = ck.component("F", { scope = true,
              render = function(self)
                return ck.View{class = "UITextField", attributes = {placeholder = "p",
                  ck.onControl(self:action("changed", {"Event"}), {"editingChanged"})}}
              end,
              changed = function(self, sender, ev) print("text " .. ev.text) end,
            })
            return function() return F{} end
            """, waitFor: "[▸p", term: "xterm-256color")
        defer { withExtendedLifetime(dir) {} }
        try s.run(["send-keys", "-t", "0", "-l", "abcd"])
        try s.wait("typed") { Self.has($0, "text abcd") }
        try s.run(["send-keys", "-t", "0", "-H", "1b", "4f", "48"])
        try s.run(["send-keys", "-t", "0", "-l", "X"])
        try s.run(["send-keys", "-t", "0", "-H", "1b", "4f", "46"])
        try s.run(["send-keys", "-t", "0", "-l", "Y"])
        try s.wait("Home and End moved") { Self.has($0, "text XabcdY") }
    }
}
