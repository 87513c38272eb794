import CKTestHelpers
import Foundation
import Testing

/// A chunk the user wrote that does not compile, where ckrun reports it itself, carries
/// `[syntaxError]`, its file:line and what became of the run (the outsider's React attack,
/// reload 02: a reload of a broken file printed Lua's bare message).
@Suite("Syntax errors in a running app (piped)")
struct ReloadSyntaxErrorTests {
    static let label = """
        local LABEL = "v1"
        return ck.component("Label", {
          scope = true, initialState = 0,
          render = function(self, p, n) return ck.Text{text = LABEL .. " " .. n} end,
        })
        """

    /// `.reload` of a file that does not compile, then of one that raises at its top level:
    /// each is reported with its id, and the running app stays as it was.
    @Test func aReloadThatDoesNotCompileOrRaisesSaysSoAndKeepsTheApp() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("label.lua", Self.label)
        // Run in its directory: Lua shortens a long chunk name (a temporary path) with "...".
        let r = try Ckrun.run(["label.lua"], stdin: """
            f = io.open("label.lua", "w") f:write('local LABEL = "v2" .. ..\\n') f:close()
            .reload
            f = io.open("label.lua", "w") f:write('local x = 1\\nerror("half-way")\\n') f:close()
            .reload
            .tree

            """, directory: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("[syntaxError] label.lua:1: unexpected symbol near '..'; the reload was rolled back: the running app keeps"), "\(r.stderr)")
        #expect(r.stderr.contains("[reloadFailed] reloading label.lua raised at its top level"), "\(r.stderr)")
        #expect(r.stderr.contains("label.lua:2: half-way"), "the file's own error follows: \(r.stderr)")
        #expect(r.stdout.contains("v1 0"), "the previous app still shows: \(r.stdout)")
    }

    /// A reload whose file turns a component class into a struct: a [reloadFailed] (rolled
    /// back), and the ck.struct error says a reload cannot change a name's kind (atk-new 07: a
    /// bare [badArgument] advising another name, with no word of the rollback).
    @Test func aReloadThatChangesANamesKindSaysItIsRolledBack() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("label.lua", Self.label)
        let r = try Ckrun.run(["label.lua"], stdin: """
            f = io.open("label.lua", "w") f:write('ck.struct("Label", {x = "number"})\\nreturn ck.component("Other", {})\\n') f:close()
            .reload
            .tree

            """, directory: dir.url)
        #expect(r.stderr.contains("[reloadFailed] reloading label.lua raised at its top level"), "\(r.stderr)")
        #expect(r.stderr.contains("a reload keeps the names the running app defined, so it cannot make it a struct (ck.struct); start ckrun again"), "\(r.stderr)")
        #expect(r.stdout.contains("v1 0"), "the previous app still shows: \(r.stdout)")
    }

    /// A typed line that does not compile, in an app's session.
    @Test func aTypedLineThatDoesNotCompileSaysSo() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("label.lua", Self.label)
        let r = try Ckrun.run([app.path], stdin: "x = = 1\nprint('after')\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("[syntaxError] stdin:1: unexpected symbol near '='; the line did not run"), "\(r.stderr)")
        #expect(r.stdout.contains("after"))
    }
}
