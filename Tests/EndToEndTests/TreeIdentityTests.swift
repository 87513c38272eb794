import CKTestHelpers
import Foundation
import Testing

/// `ckrun tree`'s formats name keyed rows apart and stay valid whatever a key or a class name
/// holds (the outsider's attack on keyed rows: 07, 16).
@Suite struct TreeIdentityTests {
    /// Keys and names that broke the DOT graph (`"`, a trailing `\`) or named two scopes alike.
    static let app = """
        local Row = ck.component('Q"Row\\\\', {scope = true, view = function(self, p)
          return {class = 'UI"Label', attributes = {['t"x'] = p.t}} end})
        ck.controller('Q"Row\\\\Controller', {})
        return ck.component("List", {render = function(self)
          return ck.Stack{children = {Row{key = 'a"b', t = 1}, Row{key = "c\\\\", t = 2},
                                      Row{key = 1, t = 3}, Row{key = "1", t = 4}}} end})
        """

    /// Every quoted string of a DOT line, read as dot reads it: a `"` ends it unless escaped.
    static func quotedStringsAreClosed(_ line: String) -> Bool {
        var inside = false, escaped = false
        for ch in line {
            if escaped { escaped = false; continue }
            if inside && ch == "\\" { escaped = true; continue }
            if ch == "\"" { inside.toggle() }
        }
        return !inside
    }

    @Test func dotEscapesKeysAndNamesInEveryLabel() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("rows.lua", Self.app)
        let r = try Ckrun.run(["tree", file.path, "--format", "dot"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        for line in lines { #expect(Self.quotedStringsAreClosed(line), "an unbalanced label: \(line)") }
        #expect(lines.contains { $0.contains(##"label="Q\"Row\\#\"a\\\"b\"\n[\"t\\\"x\"]: 1""##) }, "\(r.stdout)")
        #expect(lines.contains { $0.contains(##"label="UI\"Label""##) }, "\(r.stdout)")
        #expect(lines.contains { $0.contains(##"label="Q\"Row\\Controller""##) }, "\(r.stdout)")
        let dot = ["/usr/bin/dot", "/usr/local/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let dot {
            let svg = try Ckrun.runProcess(URL(fileURLWithPath: dot), ["-Tsvg"], stdin: r.stdout)
            #expect(svg.status == 0, "dot refused the graph: \(svg.stderr)")
        }
    }

    /// `--format svg` hands dot its input, its output and stderr, not the files the script holds
    /// open (a daemon dot would keep them, and their close would later read as an edit).
    @Test func dotGetsNoneOfTheScriptsOpenFiles() throws {
        let dir = try TemporaryDirectory()
        let fakeDot = try dir.write("bin/dot", "#!/bin/sh\ncat >/dev/null\nls -l /proc/$$/fd\n")
        chmod(fakeDot.path, 0o755)
        let held = dir.url.appendingPathComponent("held-open.txt").path
        let file = try dir.write("held.lua", "HELD = io.open(\(String(reflecting: held)), 'w')\n" + Self.app)
        let path = dir.url.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        let r = try Ckrun.run(["tree", file.path, "--format", "svg"], environment: ["PATH": path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("/proc") || r.stdout.contains("0 ->"), "the fake dot listed its descriptors: \(r.stdout)")
        #expect(!r.stdout.contains("held-open.txt"), "dot inherited the script's file: \(r.stdout)")
    }

    @Test func jsonKeepsKeyTypesAndPathsApart() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("rows.lua", Self.app)
        let r = try Ckrun.run(["tree", file.path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let stack = (root?["children"] as? [[String: Any]])?.first
        let rows = stack?["children"] as? [[String: Any]] ?? []
        #expect(rows.count == 4)
        #expect(rows.compactMap { $0["path"] as? String }
                == [##"List/Stack/Q"Row\#"a\"b""##, ##"List/Stack/Q"Row\#"c\\""##, ##"List/Stack/Q"Row\#1"##, ##"List/Stack/Q"Row\#"1""##])
        #expect(rows[2]["key"] as? Int == 1, "key 1 is a JSON number: \(r.stdout)")
        #expect(rows[3]["key"] as? String == "1", "key \"1\" is a JSON string: \(r.stdout)")
    }

    /// A node's JSON path is the query that finds it: `[2]` after a second sibling of its label
    /// (atk-apps3 01: `Two/Stack/Stack/Text` named the first stack's text).
    @Test func jsonPathsWriteTheSiblingsPosition() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("two.lua", """
            return ck.component("Two", {render = function()
              return ck.Stack{children = {ck.Stack{children = {ck.Text{text = "a"}}},
                                          ck.Stack{children = {ck.Text{text = "b"}, ck.Text{text = "c"}}}}} end})
            """)
        let r = try Ckrun.run(["tree", file.path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let stacks = ((root?["children"] as? [[String: Any]])?.first?["children"] as? [[String: Any]]) ?? []
        #expect(stacks.compactMap { $0["path"] as? String } == ["Two/Stack/Stack", "Two/Stack/Stack[2]"])
        let texts = stacks.last?["children"] as? [[String: Any]] ?? []
        #expect(texts.compactMap { $0["path"] as? String } == ["Two/Stack/Stack[2]/Text", "Two/Stack/Stack[2]/Text[2]"])
    }
}
