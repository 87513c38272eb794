import CKRuntime
import Testing

private struct Refusal: Error {}

@Suite("Every ScriptError carries a catalogued id")
struct ErrorIdTests {
    /// Outsider break 3: a Swift handler's own error reached the sender with no id.
    @Test func aSwiftHandlersOwnErrorIsActionFailed() throws {
        let runtime = try Runtime()
        var responder = HostResponder(name: "ViewController")
        responder.on("picked") { _ in throw Refusal() }
        let host = try runtime.mount(try runtime.load(string: pickerSource, name: "picker.lua"), responders: [responder])
        let error = try #require(throws: ScriptError.self) {
            try host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
        }
        #expect(error.id == .actionFailed)
        #expect(error.message.hasPrefix("[actionFailed]"))
        #expect(error.message.contains("Refusal"))
    }

    @Test func aLuaHandlersOwnErrorIsActionFailedNamingTheHandler() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            return ck.component("Boom", {scope = true, explode = function(self) error("boom") end})
            """, name: "boom.lua")
        let host = try runtime.mount(app)
        let error = try #require(throws: ScriptError.self) { try host.send("explode", to: .scope("Boom")) }
        #expect(error.id == .actionFailed)
        #expect(error.message.contains("explode"))
        #expect(error.message.contains("boom.lua:1: boom"))
    }

    /// atk-apps2 05: a block action's error said only "the function of a block action raised";
    /// it names the block's file:line and the component that sent it, as a scope action's does.
    @Test func aBlockActionsErrorNamesItsSenderAndWhereTheBlockWasDefined() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            local Row = ck.component("Row", {render = function(self, p)
              return ck.Button{title = p.label, action = p.onPress} end})
            return ck.component("App", {scope = true, render = function(self)
              local rows = {}
              for i, name in ipairs({"a", "b", "c"}) do
                rows[i] = Row{key = name, label = name, onPress = ck.action(function(sender)
                  local item = ({a = {}, b = {}})[name]; return item.title end)}
              end
              return ck.Stack{children = rows}
            end})
            """, name: "rows.lua")
        let host = try runtime.mount(app)
        let error = try #require(throws: ScriptError.self) { try host.tap("Row#c") }
        #expect(error.id == .actionFailed)
        #expect(error.message.contains("[actionFailed] the block action (function at rows.lua:6) sent by App/Stack/Row#c/Button raised:"), "\(error.message)")
    }

    /// Outsider break 3: calling a value that is not a function gave an id-less error.
    @Test func callingAValueThatIsNoFunctionIsBadArgument() throws {
        let runtime = try Runtime()
        for source in ["return 42", "return 1.5", "return 'text'", "return nil", "return true"] {
            let value = try runtime.load(string: source)
            let error = try #require(throws: ScriptError.self) { try value.call([]) }
            #expect(error.id == .badArgument, "\(source): \(error.message)")
        }
        let table = try runtime.load(string: "return {}")
        #expect(try #require(throws: ScriptError.self) { try table.call([]) }.id == .scriptFailed)
    }

    @Test func aScriptsOwnErrorInACallIsScriptFailed() throws {
        let runtime = try Runtime()
        let f = try runtime.load(string: "return function() error('boom') end", name: "f.lua")
        let error = try #require(throws: ScriptError.self) { try f.call() }
        #expect(error.id == .scriptFailed)
        #expect(error.message.hasPrefix("[scriptFailed] "))
        #expect(error.message.contains("f.lua:1: boom"))
        let table = try runtime.load(string: "return function() error({code = 7}) end")
        #expect(throws: ScriptError.self) { try table.call() }
    }

    /// A Swift handler that fails to decode its argument throws a catalogued error too.
    @Test func aHandlerArgumentThatDoesNotDecodeIsBadArgument() throws {
        struct Wrong: Decodable { var missing: String }
        let runtime = try Runtime()
        var responder = HostResponder(name: "ViewController")
        responder.on("picked", Wrong.self) { _ in }
        let host = try runtime.mount(try runtime.load(string: pickerSource, name: "picker.lua"), responders: [responder])
        let error = try #require(throws: ScriptError.self) {
            try host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
        }
        #expect(error.id == .badArgument)
    }

    /// Every catalogued id has its what-to-do text.
    @Test func everyIdSaysWhatToDo() {
        for id in ErrorID.all { #expect(!id.fix.isEmpty && !id.cause.isEmpty, "\(id)") }
    }
}
