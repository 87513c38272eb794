@testable import CKCore
import CKTestHelpers
import Testing

/// A path as ckrun prints it (`path`: the live view's side panel, `shownPath` in
/// messages) is a query that finds exactly that component (attack atk-apps2 10).
@Suite("A printed path is a query")
struct PathQueryTests {
    @Test func everyPlacedPathFindsItsComponent() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf")
        let keyedLeaf = f.component("Leaf", scope: true)
        let inner = f.stack("Row") { _ in [try f.make(leaf)] }
        // Keyed and unkeyed siblings of one class: `Leaf#a`, `Leaf`, `Leaf[2]`, `Leaf#2`, `Leaf#"2"`.
        let row = f.stack("Row") { _ in
            [try f.make(keyedLeaf, key: .string("a")), try f.make(leaf), try f.make(leaf),
             try f.make(leaf, key: .int(2)), try f.make(leaf, key: .string("2")), try f.make(inner)]
        }
        let list = f.stack("List") { _ in [try f.make(row), try f.make(row, key: .int(1)), try f.make(row)] }
        let host = try Host(runtime: f.runtime) { _ in try f.make(list) }
        var all: [Component] = []
        var stack = [host.root!]
        while let c = stack.popLast() { all.append(c); stack.append(contentsOf: c.children.reversed()) }
        #expect(all.count > 20)
        for c in all {
            let path = c.path
            #expect(try host.find(path) === c, "\(path)")
            #expect(try host.findAll(path).count == 1, "\(path)")
            #expect(try host.find(c.shownPath) === c, "\(c.shownPath)")
        }
    }

    /// Keys that print alike though they differ (cut at `Excerpt.limit`, floats): `[N]` counts
    /// them as the label does, also where `printsAlike` skips making labels (atk-apps3 01).
    @Test func siblingsThatPrintAlikeAreCountedByTheirLabel() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf")
        let long = String(repeating: "k", count: 300)
        let list = f.stack("List") { _ in
            [try f.make(leaf, key: .string(long + "a")), try f.make(leaf, key: .string(long + "b")),
             try f.make(leaf, key: .int(1)), try f.make(leaf, key: .string("1")), try f.make(leaf, key: .number(1.5)), try f.make(leaf, key: .number(1.5))]
        }
        let host = try Host(runtime: f.runtime) { _ in try f.make(list) }
        let rows = host.root!.children
        #expect(rows.map { $0.path }.map { $0.hasSuffix("[2]") } == [false, true, false, false, false, true])
        for i in rows.indices { #expect(host.root!.childLabel(at: i) == host.root!.childLabels[i]) }
    }

    @Test func aPathStartsAtTheRootAndEachStepIsAChild() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf")
        let row = f.stack("Row") { _ in [try f.make(leaf)] }
        let host = try Host(runtime: f.runtime) { _ in try f.make(f.stack("List") { _ in [try f.make(row)] }) }
        #expect(try host.find("List/Row/Leaf")?.name == "Leaf")
        #expect(try host.find("Row/Leaf") == nil)
        #expect(try host.find("List/Leaf") == nil)
    }

    @Test(arguments: ["/List", "List/", "List//Row", "List/Row > Leaf", "List Row/Leaf", "List/Row Leaf", "List > Row/Leaf"])
    func aMalformedPathIsBadQuery(_ text: String) throws {
        let f = CoreFixture()
        let host = try Host(runtime: f.runtime) { _ in try f.make(f.stack("List") { _ in [] }) }
        let error = try #require(throws: RuntimeError.self) { try host.find(text) }
        #expect(error.id == .badQuery, "\(text): \(error)")
    }
}

/// `Button[title="reset"]`: the parser takes attributes, then a position (atk-apps2 13); what
/// they match needs the script's tables (Tests/lua/query_attributes_spec.lua).
@Suite("Attribute selectors parse")
struct QueryAttributeParseTests {
    @Test(arguments: [#"Button[title="reset"]"#, #"*[title="a b"][2]"#, #"Text[text="x"][label="y"]"#, #"Row#1 > Button[title="\"q\""]"#])
    func wellFormed(_ text: String) throws {
        _ = try Query(text)
    }

    @Test(arguments: [#"Button[title=reset]"#, #"Button[title]"#, #"Button[title="x""#, #"Button[2][title="x"]"#, #"[title="x"]"#, #"Button[="x"]"#, #"Button[2][3]"#])
    func malformedIsBadQuery(_ text: String) throws {
        let error = try #require(throws: RuntimeError.self) { try Query(text) }
        #expect(error.id == .badQuery, "\(text): \(error)")
    }
}
