import CKRuntime
import Testing

/// Every way a Lua value comes back to Swift either keeps all of it or is `[badArgument]`
/// (attack lib 12, 13: nils in a list, keys that are not UTF-8 or that Swift merges were lost
/// without a word).
@Suite("Lua values come back whole or not at all")
struct LosslessValueTests {
    struct Form: Codable, Equatable { var scores: [Int?] }

    @Test(arguments: [[1, nil, 3], [nil, 2], [1, nil], [nil], [nil, nil], [], [4, 5]] as [[Int?]])
    func optionalArraysRoundTrip(_ scores: [Int?]) throws {
        let runtime = try Runtime()
        let identity = try runtime.load(string: "return function(v) return v end")
        let back = try identity.call([try ScriptValue(encoding: Form(scores: scores))])[0].decode(Form.self)
        #expect(back == Form(scores: scores))
    }

    @Test func aListWithNilsCarriesItsLengthIntoLua() throws {
        let runtime = try Runtime()
        let shape = try runtime.load(string: "return function(t) return t.n, t[1], t[2], t[3] end")
        #expect(try shape.call([[1, nil, 3]]) == [3, 1, nil, 3])
    }

    @Test(arguments: [
        "return {1, 2, name = 'x'}",                // list items beside a string key
        "return {[1.5] = 'x'}",                     // a float key
        "return {[true] = 'x'}",                    // a boolean key
        "return {['\\xff'] = 'key A'}",             // a key that is not UTF-8
        "return {['\\u{E9}'] = 1, ['e\\u{301}'] = 2}",  // keys Swift counts as one
        "return {bytes = '\\xff\\xfe'}",            // a string that is not UTF-8
        "return {n = 1e9 // 1, 1}",                 // more holes than a ScriptValue may carry
    ])
    func lossyTablesAreRefused(_ source: String) throws {
        let runtime = try Runtime()
        let made = try runtime.load(string: source, name: "lossy.lua")
        let error = try #require(throws: ScriptError.self) { try made.value() }
        #expect(error.id == .badArgument)
    }

    /// A Swift handler's arguments come back through the same path.
    @Test func aHandlerArgumentThatWouldLoseDataIsRefused() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("Sender", {scope = true, render = function() return nil end,
              go = function(self) ck.action("got", {"table"}):send(self, {1, 2, name = 'x'}) end})
            """, name: "sender.lua")
        var responder = HostResponder(name: "VC")
        responder.on("got") { _ in Issue.record("the handler ran with a truncated list") }
        let host = try runtime.mount(app, responders: [responder])
        let error = try #require(throws: ScriptError.self) { try host.send("go", to: .scope("Sender")) }
        #expect(error.message.contains("[badArgument]") && error.message.contains("without losing data"))
    }
}
