import CKRuntime
import Testing

/// Outside attack (embedding) 03, 04, 06, 07: what a Swift program is told when a value does
/// not convert or a call fails says where, in the library's own words.
@Suite("Embedding: errors say where, in the library's words")
struct EmbeddingMessagesTests {
    struct Gain: Decodable { var gain: Float16 }
    struct Narrow: Decodable { var level: Int8 }

    /// Break 04: Float16 threw Swift's DecodingError ("Parsed JSON number"), not `[badArgument]`.
    @Test func everyNumericTypeRefusesANumberItCannotHoldAsBadArgument() throws {
        let value: ScriptValue = ["gain": 1e10]
        let error = #expect(throws: ScriptError.self) { try value.decode(Gain.self) }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("gain") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("JSON") == false, "\(error?.message ?? "")")
        #expect(try ScriptValue.double(0.5).decode(Float16.self) == 0.5)
        #expect(throws: ScriptError.self) { try ScriptValue.int(70_000).decode(Float16.self) }
        #expect(throws: ScriptError.self) { try (["level": 300] as ScriptValue).decode(Narrow.self) }
    }

    enum Colour: String, Decodable { case red, green }
    struct Paint: Decodable { var colour: Colour }

    /// Break 04's class: any DecodingError a Swift type's own `init(from:)` throws reaches the
    /// program as `[badArgument]` naming the field, never as a DecodingError.
    @Test func aSwiftTypesOwnDecodingErrorIsBadArgumentNamingTheField() throws {
        let error = #expect(throws: ScriptError.self) { try (["colour": "blue"] as ScriptValue).decode(Paint.self) }
        #expect(error?.id == .badArgument)
        #expect(error?.message.contains("colour") == true, "\(error?.message ?? "")")
    }

    /// Break 07: a typed handler's argument that did not decode named nothing of the handler.
    @Test func aTypedHandlersArgumentThatDoesNotDecodeNamesTheHandler() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            ck.struct("Point", {x = "number", y = "number"})
            return ck.component("P", { scope = true, render = function() return ck.Text{text = ""} end,
              move = function(self, sender, pt) ck.action("moved", {"Point"}):send(self, pt) end })
            """, name: "p.lua")
        var controller = HostResponder(name: "ViewController")
        controller.on("moved", [Double].self) { _ in }
        let host = try runtime.mount(app, responders: [controller])
        let error = #expect(throws: ScriptError.self) {
            try host.send("move", types: ["Point"], to: .scope("P"), arguments: [["x": 1, "y": 2]])
        }
        #expect(error?.id == .badArgument)
        let message = error?.message ?? ""
        for part in ["ViewController", "\"moved\"", "argument #1", "Array<Double>", "dictionary"] {
            #expect(message.contains(part), "\(part) missing from: \(message)")
        }
    }

    /// Break 03: a prop that is not UTF-8 made find() throw naming no component nor prop.
    @Test func aStringThatIsNotUTF8IsNamedByWhereItWasFound() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("Row", { scope = true,
              render = function() return ck.Stack{children = {ck.Text{text = "ok"}, ck.Text{text = "caf\\xe9"}}} end })
            """, name: "row.lua")
        let host = try runtime.mount(app)
        let error = #expect(throws: ScriptError.self) { try host.find("Text[2]") }
        #expect(error?.id == .badArgument)
        let message = error?.message ?? ""
        #expect(message.contains("Text[2]"), "\(message)")
        #expect(message.contains("props.text"), "\(message)")
        _ = try runtime.load(string: "bytes = {name = {first = 'caf\\xe9'}}")
        let nested = #expect(throws: ScriptError.self) { try runtime.global("bytes").value() }
        #expect(nested?.message.contains("name.first") == true, "\(nested?.message ?? "")")
    }

    /// Break 06: library errors spoke of `ck.host` and ended in an empty `stack traceback:`.
    @Test func libraryErrorsSpeakTheLibrarysAPI() throws {
        let runtime = try Runtime()
        let table = #expect(throws: ScriptError.self) { try runtime.mount(try runtime.load(string: "return {}")) }
        #expect(table?.traceback.contains("ck.host") == false, "\(table?.traceback ?? "")")
        let build = #expect(throws: ScriptError.self) {
            try runtime.mount(try runtime.load(string: "return function() error('render broke') end", name: "app.lua"))
        }
        #expect(build?.message.contains("ck.host") == false, "\(build?.message ?? "")")
        #expect(build?.traceback.contains("ck.host") == false, "\(build?.traceback ?? "")")
        #expect(build?.traceback.hasSuffix("stack traceback:") == false, "\(build?.traceback ?? "")")
        #expect(table?.traceback == "", "\(table?.traceback ?? "")")
        let app = try runtime.load(string: """
            return ck.component("B", { scope = true,
              render = function(self) A = ck.action("ping"); S = self; return ck.Button{title = "go", action = A} end })
            """, name: "b.lua")
        var controller = HostResponder(name: "VC")
        controller.on("ping") { _ in }
        let host = try runtime.mount(app, responders: [controller])
        try host.destroy()
        let stale = #expect(throws: ScriptError.self) { try runtime.load(string: "return A:send(S)", name: "later.lua") }
        #expect(stale?.message.contains("ck.host") == false, "\(stale?.message ?? "")")
        #expect(stale?.message.contains("runtime.mount") == true, "\(stale?.message ?? "")")
        let call = #expect(throws: ScriptError.self) { try runtime.load(string: "return {}").call() }
        #expect(call?.message.hasSuffix("stack traceback:") == false, "\(call?.message ?? "")")
        #expect(call?.message.hasPrefix("[scriptFailed] call(): attempt to call a table value") == true, "\(call?.message ?? "")")
        #expect(call?.message.contains("stack traceback:\n") == false || call?.message.contains("\t") == true, "\(call?.message ?? "")")
    }
}
