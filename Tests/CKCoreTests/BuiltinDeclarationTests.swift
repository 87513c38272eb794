import CKCore
import CKTestHelpers
import Foundation
import Testing

/// The built-ins' declarations (`Builtin.all`) are what docs/api.md and types/ck.lua say: a
/// built-in or prop missing from either, or left there after it went, fails here.
@Suite("Built-in declarations")
struct BuiltinDeclarationTests {
    private static func read(_ path: String) throws -> [Substring] {
        try String(contentsOf: Ckrun.packageRoot.appendingPathComponent(path), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The lines after the first one equal to `heading`, while `keep` holds (nil: no such line).
    private static func block(after heading: String, in lines: [Substring], while keep: (Substring) -> Bool) -> [Substring]? {
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return nil }
        return Array(lines[(start + 1)...].prefix(while: keep))
    }

    /// `| \`name\` | \`type\` | …` rows of a props table, as name → type.
    private static func documentedProps(_ section: [Substring]) -> [String: String] {
        var props: [String: String] = [:]
        for line in section where line.hasPrefix("| `") {
            let cells = line.split(separator: " | ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "|` ")) }
            if cells.count >= 2 { props[cells[0]] = cells[1].replacingOccurrences(of: "\\|", with: "|") }
        }
        return props
    }

    @Test func apiDocsDocumentEveryBuiltinAndProp() throws {
        let lines = try Self.read("docs/api.md")
        for b in Builtin.all {
            guard let section = Self.block(after: "#### `ck.\(b.name)`", in: lines, while: { !$0.hasPrefix("#") }) else {
                Issue.record("docs/api.md has no \"#### `ck.\(b.name)`\" section"); continue
            }
            let documented = Self.documentedProps(section)
            for p in b.props {
                #expect(documented[p.name] == p.stubType, "docs/api.md, ck.\(b.name): prop `\(p.name)` of type `\(p.stubType)`")
            }
            #expect(Set(documented.keys).subtracting(b.props.map(\.name)).isEmpty, "docs/api.md, ck.\(b.name) documents props it does not have")
        }
    }

    /// `---@field name[?] type …` lines, as name → type.
    private static func fields(_ block: [Substring]) -> [String: String] {
        var out: [String: String] = [:]
        for line in block {
            let words = line.dropFirst("---@field ".count).split(separator: " ")
            if words.count >= 2 { out[String(words[0]).replacingOccurrences(of: "?", with: "")] = String(words[1]) }
        }
        return out
    }

    @Test func typeStubsDeclareEveryBuiltinAndProp() throws {
        let lines = try Self.read("types/ck.lua")
        let isField = { (l: Substring) in l.hasPrefix("---@field ") }
        let ck = Self.fields(Self.block(after: "---@class ck", in: lines, while: isField) ?? [])
        for b in Builtin.all {
            #expect(ck[b.name] == "ck.\(b.name)Class", "types/ck.lua: ck.\(b.name) is a ck.\(b.name)Class")
            let overload = Self.block(after: "---@class ck.\(b.name)Class: ck.ComponentClass", in: lines, while: { $0.hasPrefix("---@overload") })
            #expect(overload?.first?.contains(": ck.\(b.name)Props): ck.Component") == true, "types/ck.lua: ck.\(b.name)Class is called with ck.\(b.name)Props")
            guard let props = Self.block(after: "---@class ck.\(b.name)Props", in: lines, while: isField).map(Self.fields) else {
                Issue.record("types/ck.lua has no ck.\(b.name)Props"); continue
            }
            for p in b.props {
                #expect(props[p.name] == p.stubType, "types/ck.lua, ck.\(b.name)Props: field \(p.name) of type \(p.stubType)")
            }
            #expect(Set(props.keys) == Set(b.propNames), "types/ck.lua, ck.\(b.name)Props has exactly the declared props and key")
        }
    }

    @Test func propsHaveOneRoleEachAndActionsTheirEvents() {
        for b in Builtin.all {
            #expect(Set(b.propNames).count == b.propNames.count, "ck.\(b.name) declares a prop twice")
            #expect(b.made.children == nil || b.made.child == nil, "ck.\(b.name): children or a child, not both")
            for a in b.made.actions { #expect(b.presentation.focusable, "ck.\(b.name) sends \(a.prop), so it takes focus") }
        }
        let button = Builtin.named("Button")!
        #expect(button.made.actions.map(\.eventsProp) == ["events"] && button.made.actions.map(\.sentOn) == [.touchUpInside])
        #expect(Builtin.named("Stack")!.made.children == "children" && !Builtin.named("Stack")!.mountsView)
        #expect(Builtin.named("View")!.made.viewClassProp == "class" && Builtin.named("View")!.made.child == "child")
    }
}
