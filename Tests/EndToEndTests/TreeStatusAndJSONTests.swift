import CKTestHelpers
import Foundation
import Testing

/// `ckrun tree`'s exit statuses and JSON fields say what happened (the outsider's React attack:
/// 08, a key copied into `identifier`; 12, a usage error that exited 1, a timer error that said
/// "the app goes on" and ended the command).
@Suite struct TreeStatusAndJSONTests {
    @Test func aFileThatRunsNoAppIsAUsageError() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("plain.lua", "local x = 1\n")
        let r = try Ckrun.run(["tree", file.path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("\(Ckrun.executableURL.path): [usage] "), "\(r.stderr)")
        #expect(r.stderr.contains("see 'ckrun tree --help'"), "\(r.stderr)")
    }

    @Test func svgWithoutGraphvizIsAUsageErrorBeforeTheAppRuns() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", "print('the app ran')\nreturn ck.component('A', {render = function() return nil end})\n")
        let r = try Ckrun.run(["tree", file.path, "--format", "svg"], environment: ["PATH": dir.url.path])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("\(Ckrun.executableURL.path): [usage] --format svg needs Graphviz's dot"), "\(r.stderr)")
        #expect(!r.stderr.contains("the app ran"))
    }

    /// As in an interactive run, the app goes on after a failed timer: the tree is printed, status 1.
    @Test func aFailedTimerIsReportedAndTheTreeStillPrints() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("timer.lua", """
            ck.after(1, function() error("poll failed") end)
            return ck.component("A", {render = function() return ck.Text{text = "hi"} end})
            """)
        let r = try Ckrun.run(["tree", file.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timerFailed]") && r.stderr.contains("poll failed"), "\(r.stderr)")
        #expect(r.stdout == "A\n  Text <UILabel text=\"hi\">\n", "\(r.stdout)")
    }

    /// `identifier` is the scope's; a key alone is the `key` field only (Lua's scope.identifier is nil).
    @Test func jsonGivesNoIdentifierForAKeyAlone() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("rows.lua", """
            local Row = ck.component("Row", {scope = true, render = function() return nil end})
            local Item = ck.component("Item", {scope = function(p) return p.id end, render = function() return nil end})
            return ck.component("List", {render = function()
              return ck.Stack{children = {Row{key = "milk"}, Row{key = 2}, Item{id = 7, key = "a"}}} end})
            """)
        let r = try Ckrun.run(["tree", file.path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let rows = ((root?["children"] as? [[String: Any]])?.first?["children"] as? [[String: Any]]) ?? []
        #expect(rows.count == 3, "\(r.stdout)")
        #expect(rows.first?["identifier"] == nil && rows.first?["key"] as? String == "milk", "\(r.stdout)")
        #expect(rows.dropFirst().first?["identifier"] == nil && rows.dropFirst().first?["key"] as? Int == 2, "\(r.stdout)")
        #expect(rows.last?["identifier"] as? Int == 7 && rows.last?["key"] as? String == "a", "\(r.stdout)")
    }
}
