import CKTestHelpers
import Foundation
import Testing

/// The REPL prints keys as Lua reads them, and `.tree`'s hint finds the component whose state it
/// cut (attack atk-repl 07, 26).
@Suite struct ReplKeysAndHintTests {
    /// Every reserved word of Lua 5.4 is a bracketed key, so `"true"` and `true` print apart
    /// and the printed table is Lua.
    @Test func reservedWordKeysPrintBracketed() throws {
        let words = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
                     "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]
        for word in words {
            let r = try Ckrun.run(["repl"], stdin: "={[\"\(word)\"] = 1}\n")
            #expect(r.stdout == "{[\"\(word)\"] = 1}\n", "\(word): \(r.stdout) \(r.stderr)")
        }
        let both = try Ckrun.run(["repl"], stdin: "={[\"true\"] = 2, [true] = 1, name = 3}\n")
        #expect(both.stdout == "{name = 3, [true] = 1, [\"true\"] = 2}\n" || both.stdout.contains("[\"true\"] = 2"), "\(both.stdout)")
        #expect(!both.stdout.contains(" true = 2"), "\(both.stdout)")
    }

    /// The hint under a reserved-word key is Lua: typed, it prints the state.
    @Test func theHintUnderAReservedWordKeyRuns() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", """
            local S = ck.component("S", {scope = true, initialState = {["end"] = {x = {y = {z = 1}}}}})
            return function() return S{} end
            """)
        let r = try Ckrun.run([app.path], stdin: ".tree\n=app.root.state[\"end\"].x\n", directory: dir.url)
        #expect(r.stdout.contains("print it whole: =app.root.state[\"end\"].x)\n"), "\(r.stdout)")
        #expect(r.stdout.contains("{y = {z = 1}}"), "\(r.stdout) \(r.stderr)")
    }

    /// The cut state is the second sibling's: the hint's query finds that one, not the first.
    @Test func theHintNamesTheSiblingWhoseStateItCut() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", """
            local S = ck.component("S", {scope = true, initialState = function(p)
              if p.v == 1 then return {deep = 1} end
              return {deep = {a = {b = {c = p.v}}}}
            end})
            return function() return ck.Stack{children = {S{v = 1}, S{v = 2}}} end
            """)
        let r = try Ckrun.run([app.path], stdin: ".tree\n=app:find(\"S[2]\").state.deep.a\n", directory: dir.url)
        #expect(r.stdout.contains("print it whole: =app:find(\"S[2]\").state.deep.a)\n"), "\(r.stdout)")
        #expect(r.stdout.contains("{b = {c = 2}}"), "\(r.stdout)")
    }
}
