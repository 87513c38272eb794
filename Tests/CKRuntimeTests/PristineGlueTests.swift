import CKRuntime
import Testing

/// The library's own Lua (Glue.lua) reads the standard library as it was at start: a script's
/// `string = nil` or `error = nil` made a failed `find` raise "attempt to index a nil value
/// (global 'string')" instead of `[noMatch]`.
@Suite("The library's glue and a script's globals")
struct PristineGlueTests {
    @Test func aFailedFindIsNoMatchWhateverTheScriptRemoved() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            string, error, type, pairs, next = nil, nil, "x", nil, nil
            return ck.component("A", {render = function() return ck.Text{text = "a"} end})
            """, name: "app.lua")
        let host = try runtime.mount(app, model: [:])
        let missing = try #require(throws: ScriptError.self) { try host.action("x", to: .scope("Nope")) }
        #expect(missing.id == .noMatch, "\(missing)")
        #expect(try host.find("Text")?.props["text"] == "a")
    }
}
