import CKTestHelpers
import Foundation
import Testing

/// An app that calls `ck.run` (the only way to pass host responders or a model): a counter
/// whose render raises at 13, with a controller that counts its inits.
let runCounterApp = """
    ck.controller("CounterController", {didInit = function(self) self.inits = (self.inits or 0) + 1 end})
    local Counter = ck.component("Counter", {scope = true, initialState = 0,
      render = function(self, props, n)
        if n == 13 then error("unlucky thirteen") end
        return ck.Stack{children = {ck.Text{text = props.label .. " " .. n},
                                    ck.Button{title = "+", action = self:action("bump")}}}
      end,
      bump = function(self) self:updateState(function(n) return n + 1 end) end})
    WINDOW = {name = "Window", methods = {close = function() end}}
    ck.run(function(model) return Counter{label = model.label} end,
           {model = {label = "count"}, responders = {WINDOW}})
    """

@Suite("The app session (piped)")
struct AppSessionTests {
    @Test func reloadOfAnAppThatCallsCkRunKeepsStateControllersAndOneHost() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let r = try Ckrun.run([app.path], stdin: """
            .tap Button
            .tap Button
            k, oldWindow = ck.controllerOf(app.root), WINDOW
            .reload
            =app.root.state, ck.controllerOf(app.root) == k, k.inits, ck.stats().hosts
            chain = ck.responderChain(app.root)
            =rawequal(chain[#chain], WINDOW), WINDOW ~= oldWindow
            .chain Button

            """)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("reloaded \(app.path)") })
        #expect(lines.contains("2\ttrue\t1\t1"), "state, controller kept; one host: \(r.stdout)")
        #expect(lines.contains("true\ttrue"), "the reloaded file's responder tables are the chain's: \(r.stdout)")
        #expect(lines.last?.hasSuffix("-> <HostingView> -> <Window> -> nil") == true, "host responders by name: \(r.stdout)")
    }

    @Test func aReloadWhoseBuildFailsIsRolledBack() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let r = try Ckrun.run([app.path], stdin: """
            .tap Button
            P = "\(app.path)"
            src = io.open(P):read("a")
            f = io.open(P, "w") f:write((src:gsub("props.label", "props.nope.x"))) f:close()
            .reload
            =app.root.state, app.generation, ck.stats().hosts
            f = io.open(P, "w") f:write(src) f:close()
            .reload
            =app:find("Text").props.text

            """)
        #expect(r.status == 0)
        #expect(r.stdout.contains("1\t2\t1\n"), "rolled back: state, generation, one host: \(r.stdout)")
        #expect(r.stdout.hasSuffix("\"count 1\"\n"), "the fixed file reloads: \(r.stdout)")
        #expect(r.stderr.components(separatedBy: "[buildFailed]").count == 2, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "stack traceback:").count == 2, "one traceback, the render's: \(r.stderr)")
        #expect(r.stderr.contains("counter.lua:5: attempt to index a nil value (field 'nope')"), "\(r.stderr)")
    }

    @Test func aFailingUpdateIsReportedOnceAndTheNextInputWorks() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let r = try Ckrun.run([app.path], stdin: """
            app.root:updateState(13)
            print("hello")
            =app.root.state
            app.root:updateState(13, "sync")
            =app:find("Text").props.text

            """)
        #expect(r.status == 0)
        #expect(r.stdout == "hello\n0\n\"count 0\"\n", "\(r.stdout)")
        let failures = r.stderr.components(separatedBy: "[buildFailed]").count - 1
        #expect(failures == 2, "each failing update is reported once: \(r.stderr)")
        #expect(r.stderr.contains("raised in the render of Counter"))
        #expect(r.stderr.contains("the state updates of Counter were dropped"))
        #expect(r.stderr.contains("counter.lua:4: unlucky thirteen"))
        #expect(r.stderr.contains("[buildFailed] stdin:1:"), "a sync update's error names the input line")
    }

    @Test func startingOnAnAppSaysWhichAppIsMountedAlsoWhenPiped() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let r = try Ckrun.run([app.path], stdin: "")
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("counter.lua: Counter mounted as app (generation 1)"), "\(r.stderr)")
        #expect(r.stderr.contains(".tree") && r.stderr.contains(".help"))
    }

    @Test func pauseAdvanceResumeAndTimeWorkTheVirtualClock() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let r = try Ckrun.run([app.path], stdin: """
            .pause
            ck.after(2, function() app.root:updateState(100) end)
            =app.root.state
            .advance 1
            =app.root.state
            .time
            .advance 1
            =app.root.state
            ck.after(5, function() app.root:updateState(7) end)
            .resume
            =app.root.state
            .advance x

            """)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            time 0s (paused), no timers pending
            1
            0
            0 timers fired; time 1s (paused), 1 timer pending, next at 2s
            0
            time 1s (paused), 1 timer pending, next at 2s
            1 timer fired; time 2s (paused), no timers pending
            100
            2
            time 7s (running), no timers pending
            7

            """, "\(r.stdout)")
        #expect(r.stderr.contains("usage: .advance SECONDS"))
    }

    /// docs/repl.md: ARGS are Lua expressions, separated by spaces or commas; a missing or
    /// malformed SELECTOR is named as such, not as a query that matches nothing.
    @Test func sendReadsSpaceSeparatedArgumentsAndNamesAMissingSelector() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("pick.lua", """
            return ck.component("Picker", {scope = true, render = function() return ck.Button{title = "b"} end,
              pick = function(self, sender, a, b, c) print("pick", a, b, c) end})
            """)
        let r = try Ckrun.run([app.path], stdin: """
            .send Picker
            .send Picker 7
            .send Picker pick 1 2
            .send Picker pick "a b" {1, 2} 3
            .send Picker pick 1, 2 3
            .send Picker pick 1 +
            .send Nope pick

            """)
        #expect(r.stderr.contains("usage: .send QUERY SELECTOR [TYPES] [ARGS] (the SELECTOR is missing after Picker)"), "\(r.stderr)")
        #expect(r.stderr.contains("(7 is no SELECTOR: a selector is a Lua name, as pick)"), "\(r.stderr)")
        #expect(r.stdout.contains("pick\t1\t2\tnil\n"), "\(r.stdout)")
        #expect(r.stdout.contains("pick\ta b\ttable: "), "\(r.stdout)")
        #expect(r.stdout.contains("pick\t1\t2\t3\n"), "\(r.stdout)")
        #expect(r.stderr.contains("cannot read the arguments of \"pick\": unexpected symbol near '+' (ARGS are Lua expressions, separated by spaces or commas"), "\(r.stderr)")
        #expect(r.stderr.contains("(no component matches the query; try .tree)"), "\(r.stderr)")
        #expect(!r.stderr.contains("args:1:"), "\(r.stderr)")
    }

    /// `.tap Row#a` whose first view is a label says which views below could be tapped, with
    /// queries, and without the REPL's own "(repl):N:" as its place (atk-apps, not filed).
    @Test func tapOfALabelNamesTheButtonsBelow() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("rows.lua", """
            local Row = ck.component("Row", {render = function(self, p)
              return ck.Stack{direction = "horizontal", children = {
                ck.Text{text = p.id}, ck.Button{title = "+", action = p.bump}}}
            end})
            return ck.component("List", {scope = true, initialState = 0,
              render = function(self, p, n) return ck.Stack{children = {Row{key = "a", id = "a", bump = self:action("bump")}}} end,
              bump = function(self) print("bumped") end})
            """)
        let r = try Ckrun.run([app.path], stdin: ".tap Row#a\n.tap Row#a > Stack > Button\n")
        #expect(r.stderr.contains("[nothingTapped] tap(\"Row#a\") tapped the first view at or below List/Stack/Row#a, a UILabel of Text"), "\(r.stderr)")
        #expect(r.stderr.contains("this view could be tapped: \"Row#a > Stack > Button\""), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
        #expect(r.stdout.contains("0 actions sent\nbumped\n1 action sent\n"), "\(r.stdout)")
    }

    @Test func sendTraceAndNoApp() throws {
        let none = try Ckrun.run(["repl"], stdin: ".send Button bump\n")
        #expect(none.stderr.contains("no app is running"), "\(none.stderr)")
        let dir = try TemporaryDirectory()
        let app = try dir.write("nested.lua", """
            local C = ck.component("Outer", {scope = true,
              outer = function(self, sender) self:action("inner"):send(sender) end,
              inner = function() end,
              render = function() return ck.Text{text = "x"} end})
            return C
            """)
        let r = try Ckrun.run([app.path], stdin: ".trace on\n.send Text outer\n.trace off\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            outer from Text: Text -> Outer (handled)
            inner from Text: Outer (handled)

            """, "outer first, printed once: \(r.stdout)")
    }

    @Test func aHandlersErrorInADotCommandKeepsTheHandlersFrame() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("boom.lua", """
            return ck.component("Boom", {scope = true,
              render = function() return ck.Text{text = "x"} end,
              boom = function(self)
                return math.min(1, "x")
              end})
            """)
        let r = try Ckrun.run([app.path], stdin: ".send Text boom\n.tap Nope\n.advance x\n")
        #expect(r.stderr.contains("boom.lua:4: in function <"), "the handler's frame: \(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "no frames of the REPL's own: \(r.stderr)")
        #expect(r.stderr.contains("[noMatch] tap: nothing matches \"Nope\"; check the query against host:dump()\nusage: .advance"),
                "a command's complaint prints without a traceback: \(r.stderr)")
    }

    @Test func treeShowsWhatIsOnScreenAndStateAsJSON() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("screen.lua", """
            local C = ck.component("Screen", {scope = true, initialState = {volume = 3, tags = {"a", "b"}},
              render = function(self, p, s) return ck.Stack{children = {ck.Text{text = "Volume " .. s.volume},
                ck.Button{title = "Louder", action = self:action("louder")}}} end,
              louder = function() end})
            return C
            """)
        let text = try Ckrun.run(["tree", app.path])
        #expect(text.stdout.contains("Text <UILabel text=\"Volume 3\">"), "\(text.stdout)")
        #expect(text.stdout.contains("Button <UIButton title=\"Louder\">"), "\(text.stdout)")
        let json = try Ckrun.run(["tree", app.path, "--format", "json"])
        #expect(json.stdout.contains("\"state\": {\"tags\": [\"a\", \"b\"], \"volume\": 3}"), "\(json.stdout)")
        #expect(json.stdout.contains("\"attributes\": {\"text\": \"Volume 3\"}"), "\(json.stdout)")
        #expect(json.stdout.contains("\"attributes\": {\"title\": \"Louder\"}"), "\(json.stdout)")
        let data = Data(json.stdout.utf8)
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "valid JSON")
        let dot = try Ckrun.run(["tree", app.path, "--format", "dot"])
        #expect(dot.stdout.contains("title: \\\"Louder\\\""), "\(dot.stdout)")
    }

    /// Control characters in state or attributes (a NUL ended dot's parse) stay inside the label.
    @Test func dotLabelsCarryControlCharactersAsText() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("bytes.lua", """
            local C = ck.component("B", {scope = true, initialState = "a\\0b\\1c\\r",
              render = function() return ck.Text{text = "\\0\\t\\"q\\"\\\\"} end})
            return C
            """)
        let dot = try Ckrun.run(["tree", app.path, "--format", "dot"])
        #expect(dot.status == 0)
        #expect(!dot.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(dot.stdout)")
        // The dump's escaper quotes the text (\000, \t, \", \\); the dot label escapes that again.
        #expect(dot.stdout.contains(#"text: \"\\000\\t\\\"q\\\"\\\\\""#), "\(dot.stdout)")
    }

    @Test func requireFindsModulesBesideTheScriptFromAnyDirectory() throws {
        let dir = try TemporaryDirectory()
        try dir.write("app/theme.lua", "return {accent = 'teal'}")
        let app = try dir.write("app/main.lua", "print(require('theme').accent, package.path:find('app/', 1, true))")
        let r = try Ckrun.run([app.path], directory: FileManager.default.temporaryDirectory)
        #expect(r.stdout == "teal\tnil\n", "\(r.stderr)")
    }
}

/// An app's `--watch`: a subdirectory of modules moved out of the app's tree and made again is
/// watched again (its watch stayed on the moved directory, its name taken: edits in the new one
/// reloaded nothing, and the moved one's were reported as the app's; sweep15 atk-data 11's class).
@Suite("The app's --watch after a directory is replaced")
struct AppWatchReplacedDirectoryTests {
    @Test func aModulesDirectoryMadeAgainIsWatchedAgain() throws {
        let dir = try TemporaryDirectory()
        try dir.write("parts/row.lua", "return 1\n")
        try dir.write("app.lua", "return ck.component('C', {render = function() return ck.Text{text = 'x'} end})\n")
        let script = """
        (sleep 9) | "$0" app.lua --watch > out.txt 2>&1 & pid=$!
        away=$(mktemp -d); sleep 2; mv parts "$away/"; sleep 1; echo 'return 3' > "$away/parts/old.lua"; sleep 1
        mkdir parts; sleep 1; echo 'return 2' > parts/row.lua; sleep 2
        kill $pid; wait $pid; rm -rf "$away"; cat out.txt
        """
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                          directory: dir.url, timeout: 60)
        let changes = result.stdout.split(separator: "\n").filter { $0.hasPrefix("changed: ") }
        #expect(changes.contains { $0.contains("parts/row.lua") }, "\(result.stdout)")
        #expect(!changes.contains { $0.contains("old.lua") }, "\(result.stdout)")
    }
}
