import CKTestHelpers
import Foundation
import Testing

/// `ckrun tree`'s formats keep every entry, parse as what they claim and stay linear (attack
/// atk-repl 01, 06, 07, 17, 22, 23).
@Suite struct TreeFormatsTests {
    static let graphviz = ["/usr/bin/dot", "/usr/local/bin/dot"].first { FileManager.default.isExecutableFile(atPath: $0) }

    private func tree(_ source: String, _ format: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> ProcessResult {
        let dir = try TemporaryDirectory()
        let file = try dir.write("app.lua", source)
        return try Ckrun.run(["tree", file.path, "--format", format] + extra, environment: environment, timeout: 120)
    }

    /// 01: one id table copied per child made dot quadratic in a component's children (20,000: 10 s).
    @Test func dotIsLinearInSiblings() throws {
        let r = try tree("""
            local L = ck.component("L", {scope = function(p) return p.i end, view = {class = "UIView"}})
            return function() local c = {} for i = 1, 40000 do c[i] = L{i = i} end return ck.Stack{children = c} end
            """, "dot", ["--timeout", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("}\n"))
    }

    /// 01: a limit that strikes while the tree is formatted does not blame the script.
    @Test func aTimeoutInTheFormatterSaysSo() throws {
        // Cheap to build (one interned string), 100 MB of JSON to write.
        let r = try tree("""
            local S = ck.component("S", {scope = function(p) return p.i end, initialState = function(p) return p.s end})
            local s = ("x"):rep(1000000)
            return function() local c = {} for i = 1, 100 do c[i] = S{i = i, s = s} end return ck.Stack{children = c} end
            """, "json", ["--timeout", "1"])
        if r.status == 0 { return }  // a fast machine formatted it in time
        #expect(r.stderr.contains("[timeout] formatting the tree as json ran past the time limit"), "\(r.stderr)")
        #expect(!r.stderr.contains("the script ran past"), "\(r.stderr)")
    }

    /// 23: a state string past Graphviz's 16 KB quoted-string limit still makes a graph dot reads.
    @Test(.enabled(if: graphviz != nil, "Graphviz is not installed"))
    func aLongLabelStillParsesWithDot() throws {
        let r = try tree("""
            return ck.component("S", {scope = true, initialState = {note = ("x"):rep(20000) .. ("y\\""):rep(5000)}})
            """, "dot")
        #expect(r.status == 0, "\(r.stderr)")
        let dir = try TemporaryDirectory()
        let graph = try dir.write("tree.dot", r.stdout)
        let parsed = try Ckrun.runProcess(URL(fileURLWithPath: Self.graphviz!), ["-Tcanon", graph.path])
        let svg = try Ckrun.runProcess(URL(fileURLWithPath: Self.graphviz!), ["-Tsvg", graph.path])
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(parsed.status == 0, "\(parsed.stderr)")
        // The label is whole (split into pieces dot joins, wrapped into lines).
        #expect(parsed.stdout.filter { $0 == "x" }.count >= 20000 && parsed.stdout.filter { $0 == "y" }.count >= 5000)
    }

    /// 23: dot that fails (here a stand-in that reads nothing) is `[graphvizFailed]`, status 1,
    /// never ckrun dying of SIGPIPE (141) while it writes a large graph.
    @Test func aFailingDotIsReportedWithAnId() throws {
        let dir = try TemporaryDirectory()
        let fake = try dir.write("dot", "#!/bin/sh\necho 'Error: <stdin>: syntax error in line 4' >&2\nexit 1\n")
        chmod(fake.path, 0o755)
        let r = try tree("""
            return ck.component("S", {scope = true, initialState = {note = ("x"):rep(1000000)}})
            """, "svg", environment: ["PATH": dir.url.path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("ckrun: [graphvizFailed] Graphviz's dot exited with status 1"), "\(r.stderr)")
        #expect(r.stderr.contains("syntax error in line 4"), "\(r.stderr)")
    }

    /// 06: keys that differ only by type stay two entries; 22: a state nested past 16 levels is
    /// whole, and a cycle is a mark no data can be.
    @Test func jsonKeepsEveryEntryAtAnyDepth() throws {
        let r = try tree("""
            local t = {name = "root"} local cur = t
            for i = 1, 40 do cur.child = {name = "level" .. i} cur = cur.child end
            local loop = {} loop.self = loop
            return ck.component("S", {scope = true, initialState = {
              [1] = "int one", ["1"] = "string one", [true] = "bool", ["true"] = "string",
              ["[1]"] = "bracketed", ["$cycle"] = "dollar", deep = t, literal = "{...}", loop = loop}})
            """, "json")
        #expect(r.status == 0, "\(r.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let state = try #require(root["state"] as? [String: Any], "\(r.stdout)")
        #expect(state["[1]"] as? String == "int one")
        #expect(state["1"] as? String == "string one")
        #expect(state["[true]"] as? String == "bool")
        #expect(state["true"] as? String == "string")
        #expect(state["[\"[1]\"]"] as? String == "bracketed")
        #expect(state["[\"$cycle\"]"] as? String == "dollar")
        #expect(state.count == 9, "\(state.keys.sorted())")
        var level = 0, cur = state["deep"] as? [String: Any]
        while let next = cur?["child"] as? [String: Any] { cur = next; level += 1 }
        #expect(level == 40 && cur?["name"] as? String == "level40", "\(r.stdout)")
        #expect(state["literal"] as? String == "{...}")
        #expect(((state["loop"] as? [String: Any])?["self"] as? [String: Any])?["$cycle"] as? Bool == true, "\(r.stdout)")
        // Written as a reader sees it: no object repeats a name.
        #expect(!r.stdout.contains("\"1\": \"int one\""))
    }

    /// 17: attribute keys are written as a table constructor writes them, every one of them.
    @Test func attributeKeysAreWrittenAsKeys() throws {
        let source = """
            return ck.component("V", {view = function() return {class = "UIButton", attributes = {
              title = "T", ["a b"] = 1, ["q\\""] = 3, ["end"] = 4, [true] = "bool key", [1.5] = "float key"}} end})
            """
        let text = try tree(source, "text")
        #expect(text.stdout == "V <UIButton [\"a b\"]=1 [\"end\"]=4 [\"q\\\"\"]=3 [1.5]=\"float key\" [true]=\"bool key\" title=\"T\", unmounted>\n" ||
                text.stdout == "V <UIButton [\"a b\"]=1 [\"end\"]=4 [\"q\\\"\"]=3 [1.5]=\"float key\" [true]=\"bool key\" title=\"T\">\n", "\(text.stdout)")
        let json = try tree(source, "json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let attributes = try #require(root["attributes"] as? [String: Any], "\(json.stdout)")
        #expect(Set(attributes.keys) == ["title", "a b", "q\"", "end", "[true]", "[1.5]"], "\(json.stdout)")
    }

    /// 07: a state's string key that is a reserved word is bracketed, so `"true"` and `true` differ.
    @Test func reservedWordKeysAreBracketedInTheDump() throws {
        let r = try tree("""
            return ck.component("S", {scope = true, initialState = {["true"] = "s", [true] = "b", ["while"] = 1, name = 2}})
            """, "text")
        #expect(r.stdout == "S state={[\"true\"] = \"s\", [\"while\"] = 1, [true] = \"b\", name = 2}\n", "\(r.stdout)")
    }
}
