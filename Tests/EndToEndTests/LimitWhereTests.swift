import CKTestHelpers
import Foundation
import Testing

/// The outsider's React attack on limits: `[memoryLimit]` (and `[timeout]`) struck inside an
/// update function, a render, a controller callback, a timer or an action handler was printed
/// bare: no file:line, and a build's was not `[buildFailed]` with the component path. Every
/// place reports it as it reports any other error there, the limit's line naming where it struck.
@Suite("Limit errors say where they struck, wherever they struck")
struct LimitWhereTests {
    /// `hog` (line 1) runs past the limit; `BOOM` chooses where it is called from.
    static func app(_ hog: String) -> String {
        """
        function hog() \(hog) end
        ck.controller("RowController", {
          willUpdateComponent = function(self) if BOOM == "callback" then hog() end end,
        })
        local Row = ck.component("Row", { scope = true, initialState = 0,
          render = function(self, p, n)
            if BOOM == "render" and n > 0 then hog() end
            return ck.Button{title = "n=" .. n, action = self:action("bump")}
          end,
          bump = function(self)
            if BOOM == "action" then hog() end
            self:updateState(function(n) if BOOM == "update" then hog() end return n + 1 end)
          end,
        })
        return ck.component("Box", { scope = true, render = function(self) return ck.Stack{children = {Row{}}} end })
        """
    }

    static let memory = app("local t = {} for i = 1, 1e8 do t[i] = {i} end")
    static let spin = app("while true do end")

    /// Runs the app with `BOOM = place`, taps the button, then taps again with nothing raising.
    func run(_ source: String, _ limit: [String], _ place: String) throws -> (stderr: String, stdout: String) {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", source)
        let trigger = place == "timer" ? "ck.after(1, hog)" : "app:tap('Button')"
        let r = try Ckrun.run(limit + [file.path],
                              stdin: "BOOM = '\(place)'\n\(trigger)\nBOOM = nil\napp:tap('Button')\nprint(app:find('Button').props.title)\n")
        #expect(r.status == 0, "\(r.stderr)")
        return (r.stderr, r.stdout)
    }

    /// A line of `err` that starts `prefix`, then the app file's path, `:1: ` (hog's line).
    func struck(_ err: String, _ prefix: String) -> Bool {
        err.split(separator: "\n").contains { $0.hasPrefix(prefix + " ") && $0.contains("app.lua:1: ") }
    }

    static let limits: [(args: [String], id: String, source: String)] = [
        (["--memory-limit", "20"], "[memoryLimit]", memory), (["--timeout", "0.3"], "[timeout]", spin),
    ]

    @Test(arguments: ["update", "render"])
    func aBuildStoppedByALimitIsABuildFailure(place: String) throws {
        for limit in Self.limits {
            let (err, out) = try run(limit.source, limit.args, place)
            #expect(err.contains("[buildFailed] building generation 2 for a state update raised in"), "\(limit.id) in \(place):\n\(err)")
            #expect(err.contains("Box/Row"), "the component path:\n\(err)")
            #expect(err.contains("generation 1 stays mounted"), "\(err)")
            #expect(struck(err, limit.id), "where it struck:\n\(err)")
            #expect(limit.id == "[memoryLimit]" || err.contains("stack traceback:"), "\(err)")
            #expect(out.hasSuffix("n=1\n"), "the next tap built generation 2 from state 0:\n\(out)\n\(err)")
        }
    }

    @Test func aCallbackStoppedByALimitIsACallbackFailure() throws {
        for limit in Self.limits {
            let (err, _) = try run(limit.source, limit.args, "callback")
            #expect(struck(err, "[callbackFailed] RowController.willUpdateComponent of Box/Stack/Row raised: \(limit.id)"), "\(limit.id):\n\(err)")
        }
    }

    @Test func anActionHandlerStoppedByALimitIsAnActionFailure() throws {
        for limit in Self.limits {
            let (err, _) = try run(limit.source, limit.args, "action")
            #expect(err.contains("[actionFailed] Row.bump of Box/Stack/Row"), "\(limit.id):\n\(err)")
            #expect(struck(err, limit.id), "where it struck:\n\(err)")
        }
    }

    @Test func aTimerStoppedByALimitIsATimerFailure() throws {
        for limit in Self.limits {
            let (err, _) = try run(limit.source, limit.args, "timer")
            #expect(struck(err, "[timerFailed] stdin:1: a timer set here failed; the app goes on: \(limit.id)"), "\(limit.id):\n\(err)")
        }
    }

    /// A script's xpcall handler that loops is stopped by --timeout too: Lua runs a handler of an
    /// error raised by the limit's hook with hooks off, and the watchdog's second tick ended the
    /// whole REPL ("a C function or a finalizer ran past the time limit"). The handler now passes
    /// the [timeout] on, the turn fails with it, and the next turn runs.
    @Test func aLoopingXpcallHandlerIsStoppedAndTheReplGoesOn() throws {
        let input = "xpcall(function() error('x') end, function() while true do end end)\nprint('NEXT TURN OK')\n"
        let r = try Ckrun.run(["repl", "--timeout", "1"], stdin: input, timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("NEXT TURN OK"), "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("[timeout] stdin:1: "), "\(r.stderr)")
        #expect(!r.stderr.contains("cannot be stopped"), "\(r.stderr)")
    }

    /// The time limit names the line where it first struck, also when the script is stopped
    /// again in a C function on its way out (a coroutine's loop reaching `coroutine.resume`,
    /// `table.sort`). Before: "[timeout] the script ran past its time limit" with no line.
    @Test(arguments: [
        ("local co = coroutine.wrap(function()\n  while true do end\nend)\nco()\n", "co.lua:2: "),
        ("local co = coroutine.create(function()\n  while true do end\nend)\nprint(coroutine.resume(co))\n", "co.lua:2: "),
        ("local t = {} for i = 1, 3e5 do t[i] = -i end\nwhile true do table.sort(t) end\n", "co.lua:2: "),
    ])
    func aTimeoutNamesTheLineWhereItStruck(_ script: String, _ line: String) throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("co.lua", script)
        let r = try Ckrun.run(["--timeout", "1", "co.lua"], directory: dir.url, timeout: 30)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout] \(line)the script ran past its time limit"), "\(r.stderr)")
    }
}

