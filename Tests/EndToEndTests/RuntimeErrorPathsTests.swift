import CKTestHelpers
import Foundation
import Testing

/// SPEC §1: every error that crosses the runtime to the user carries a catalogue id and says
/// where, with the script's own message and traceback after it. One row per path a script's
/// error takes out of ckrun (a script, the app runner, the REPL, `ckrun tree`, `ckrun test`,
/// `.reload`, `ck.config.onWarning`): each row's report names the id and the place, then the
/// script's own message on the next line.
@Suite("Errors that cross the runtime name their id and place")
struct RuntimeErrorPathsTests {
    struct Path: CustomStringConvertible, Sendable {
        let name: String
        let files: [String: String]
        let arguments: [String]
        let stdin: String
        /// The id's line and the script's own message right after it.
        let expected: [String]
        var description: String { name }
    }

    static let brokenRender = "return ck.component('D', {render = function() error('boom in render') end})\n"
    static let brokenInitial = """
        local S = ck.component('S', {scope = true, initialState = function() error('boom in initialState') end})
        return ck.component('R', {render = function() return S{} end})

        """
    static let brokenHandler = """
        ck.controller('KController', {hit = function() error('boom in handler') end})
        local K = ck.component('K', {scope = true, view = {class = 'UIView', attributes = {ck.onTap(ck.action('hit'))}}})
        return ck.component('R', {render = function() return K{} end})

        """
    static let handlerLine = "[actionFailed] KController.hit of R/K (handling \"hit\") raised:\napp.lua:1: boom in handler"
    static let firstBuild = "[buildFailed] the first build of a host (generation 1) raised in the render of D;"

    static let paths: [Path] = [
        Path(name: "a script's first build", files: ["app.lua": "ck.host(function() return ck.component('D', {render = function() error('boom in render') end}){} end)\n"],
             arguments: ["app.lua"], stdin: "", expected: ["ckrun: [buildFailed] app.lua:1: the first build of a host (generation 1) raised in the render of D;", "\napp.lua:1: boom in render\n"]),
        Path(name: "the app runner's first build", files: ["app.lua": brokenRender], arguments: ["app.lua"], stdin: "",
             expected: [firstBuild, "\napp.lua:1: boom in render\n"]),
        Path(name: "ckrun tree's build", files: ["app.lua": brokenRender], arguments: ["tree", "app.lua"], stdin: "",
             expected: [firstBuild, "\napp.lua:1: boom in render\n"]),
        Path(name: "an initialState at the first build", files: ["app.lua": brokenInitial], arguments: ["app.lua"], stdin: "",
             expected: ["raised in the initialState of S;", "\napp.lua:1: boom in initialState\n"]),
        Path(name: "a handler in a script", files: ["app.lua": brokenHandler.replacingOccurrences(of: "return ck.component('R'", with: "local R = ck.component('R'")
                                                     + "ck.host(function() return R{} end):find('K'):action('hit'):send()\n"],
             arguments: ["app.lua"], stdin: "", expected: [": " + handlerLine + "\nstack traceback:\n\t[C]: in function 'error'\n\tapp.lua:1: in function <app.lua:1>"]),
        Path(name: "a tap in the app runner", files: ["app.lua": brokenHandler], arguments: ["app.lua"], stdin: "app:tap('K')\n",
             expected: [handlerLine]),
        Path(name: "planned sends in the REPL", files: ["app.lua": brokenHandler], arguments: ["repl", "app.lua"],
             stdin: "a = app:find('K'):action('hit')\na:send()\na:send()\n", expected: [handlerLine + "\nstack traceback:", handlerLine + "\nstack traceback:"]),
        Path(name: "a handler in ckrun test", files: ["handler_spec.lua": "it('sends', function()\n" + brokenHandler.replacingOccurrences(of: "return ck.component('R'", with: "local R = ck.component('R'")
                                                        + "ck.host(function() return R{} end):find('K'):action('hit'):send()\nend)\n"],
             arguments: ["test", "handler_spec.lua"], stdin: "",
             expected: ["[actionFailed] KController.hit of R/K (handling \"hit\") raised:\n   handler_spec.lua:2: boom in handler"]),
        Path(name: "a .reload whose initialState raises", files: ["app.lua": "return ck.component('R', {render = function() end})\n", "broken.lua": brokenInitial],
             arguments: ["app.lua"], stdin: "os.rename('broken.lua', 'app.lua')\n.reload\n",
             expected: ["[buildFailed]", "raised in the initialState of S;", "\napp.lua:1: boom in initialState\n"]),
        Path(name: "a canPerformAction in the app runner", files: ["app.lua": brokenHandler.replacingOccurrences(of: "hit = function() error('boom in handler') end", with: "canPerformAction = function() error('boom in canPerformAction') end")],
             arguments: ["app.lua"], stdin: "app:tap('K')\n",
             expected: ["[actionFailed] KController.canPerformAction of R/K (handling \"hit\") raised:\napp.lua:1: boom in canPerformAction"]),
        Path(name: "ck.config.onWarning", files: ["app.lua": "ck.config.onWarning = function() error('boom in onWarning') end\nlocal X = ck.component('X', {scope = true})\nck.host(function() return ck.Stack{children = {X{}, X{}}} end)\n"],
             arguments: ["app.lua"], stdin: "",
             expected: ["[configCallbackFailed] ck.config.onWarning (given the warning below, which is written here instead) raised: app.lua:1: boom in onWarning\nstack traceback:", "\n[scopeCollision] "]),
    ]

    @Test(arguments: paths)
    func reportNamesIdAndPlace(_ path: Path) throws {
        let dir = try TemporaryDirectory()
        for (name, text) in path.files { _ = try dir.write(name, text) }
        let r = try Ckrun.run(path.arguments, stdin: path.stdin, directory: dir.url, timeout: 60)
        let output = r.stdout + r.stderr
        var from = output.startIndex
        for expected in path.expected {
            guard let found = output.range(of: expected, range: from..<output.endIndex) else {
                Issue.record("\(path.name): missing \(expected.debugDescription) in\n\(output)")
                return
            }
            from = found.upperBound
        }
    }

    /// A build nested in a render (a host made there) that fails: the levels' `[buildFailed]`
    /// lines name their places (the same line repeated is counted once), and the traceback taken
    /// where the error happened is given once. Before:
    /// each level repeated every traceback below it, 60,740 bytes of stderr at 63 levels.
    @Test func nestedBuildFailuresGiveOneTraceback() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("nest.lua", """
            local Nest
            Nest = ck.component("Nest", {render = function(self, props)
              if props.n == 0 then error("bottom") end
              ck.host(function() return Nest{n = props.n - 1} end)
            end})
            ck.host(function() return Nest{n = 40} end)

            """)
        let r = try Ckrun.run(["nest.lua"], directory: dir.url, timeout: 60)
        #expect(r.status == 1)
        // 41 nested builds failed alike: the repeats are counted on one line (atk-repl 16).
        #expect(r.stderr.components(separatedBy: "[buildFailed] nest.lua:").count == 3, "\(r.stderr.prefix(2000))")
        #expect(r.stderr.contains("\n(the same [buildFailed] 39 more times, each in a build nested in the one above; the cause follows)\nnest.lua:3: bottom"), "\(r.stderr.prefix(2000))")
        #expect(r.stderr.contains("\nnest.lua:3: bottom\nstack traceback:\n"), "\(r.stderr.prefix(2000))")
        // Lua's own traceback of the main chunk may follow the render's: two at most.
        #expect(r.stderr.components(separatedBy: "stack traceback:").count <= 3, "\(r.stderr.count) bytes")
    }
}
