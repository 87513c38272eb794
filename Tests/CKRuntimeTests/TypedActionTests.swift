import CKRuntime
import Testing

@Suite("Typed actions between Lua and Swift")
struct TypedActionTests {
    @Test func luaSendsTypedArgumentsToASwiftResponder() throws {
        let f = try PickerFixture()
        try f.host.send("relay", types: ["int", "number", "Point"], to: .scope("Picker"),
                        arguments: [7, 2, ["x": 1, "y": 2.5]])
        #expect(f.received.count == 1)
        let call = try #require(f.received.first)
        #expect(call.selector == "picked")
        #expect(call.sender == "Picker")
        // int stays an integer, an integer given as number arrives as a float, the struct as its fields.
        #expect(call.arguments == [.int(7), .double(2), ["x": .double(1), "y": 2.5]])
    }

    @Test func aDemotedActionArrivesZeroFilled() throws {
        let f = try PickerFixture()
        try f.host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [3])
        let call = try #require(f.received.first)
        #expect(call.arguments == [.int(3), .double(0), ["x": .double(0), "y": .double(0)]])
    }

    @Test func anUntypedActionIsPromotedToTheButtonsEvent() throws {
        let f = try PickerFixture()
        #expect(try f.host.tap("Button") == 1)
        let call = try #require(f.received.first)
        #expect(call.selector == "tapped")
        #expect(call.arguments == [.object("Event")])
    }

    struct Point: Codable, Equatable { var x: Double; var y: Double }

    @Test func aStructArgumentDecodes() throws {
        let f = try PickerFixture()
        try f.host.send("relay", types: ["int", "number", "Point"], to: .scope("Picker"), arguments: [1, 1, ["x": 4]])
        let call = try #require(f.received.first)
        #expect(try call.argument(2, as: Point.self) == Point(x: 4, y: 0))
    }

    @Test func swiftSendsTypedArgumentsIntoLua() throws {
        let f = try PickerFixture()
        // An integral float conforms to int (converted); the struct's missing field is zero.
        #expect(try f.host.send("select", types: ["int", "Point"], to: .scope("Picker"), arguments: [2.0, ["x": 5]]))
        let state = try #require(try f.host.find("Picker")).state
        #expect(state == ["selected": 2, "x": .double(5), "y": .double(0), "mathType": "integer"])
    }

    @Test func aSelectorActionFromSwiftWalksTheChainToTheHostResponder() throws {
        let f = try PickerFixture()
        try f.host.send("picked", types: ["int", "number", "Point"], to: .responderChain(from: "Button"), arguments: [1, 2.5, ["y": 1]])
        #expect(f.received.first?.sender == "Button")
        #expect(f.received.first?.arguments == [.int(1), .double(2.5), ["x": .double(0), "y": .double(1)]])
    }

    @Test func aWrongTypedArgumentIsBadArgument() throws {
        let f = try PickerFixture()
        let error = try #require(throws: ScriptError.self) {
            try f.host.send("select", types: ["int", "Point"], to: .scope("Picker"), arguments: [1.5, nil])
        }
        #expect(error.id == .badArgument)
        #expect(error.message.contains("argument #1"))
    }

    @Test func anActionNothingHandlesIsUnhandledAction() throws {
        let f = try PickerFixture()
        let error = try #require(throws: ScriptError.self) {
            try f.host.send("nobodyHandlesThis", to: .responderChain(from: "Picker"))
        }
        #expect(error.id == .unhandledAction)
        #expect(error.message.contains("ViewController"))
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "the Swift side refused" } }

    @Test func aSwiftHandlersErrorReachesTheSender() throws {
        let runtime = try Runtime()
        let picker = try runtime.load(string: pickerSource, name: "picker.lua")
        var failing = HostResponder(name: "Failing")
        failing.on("picked") { _ in throw Refused() }
        let host = try runtime.mount(picker, responders: [failing])
        let error = try #require(throws: ScriptError.self) {
            try host.send("relayDemoted", types: ["int"], to: .scope("Picker"), arguments: [1])
        }
        #expect(error.message.contains("the Swift side refused"))
    }
}

@Suite("Actions made once in Swift")
struct PreparedActionTests {
    @Test func aMadeScopeActionReachesTheNewestGeneration() throws {
        let f = try PickerFixture()
        let select = try f.host.action("select", types: ["int", "Point"], to: .scope("Picker"))
        try f.host.update(model: ["title": "Again"])
        #expect(try f.host.generation == 2)
        #expect(try select.send([4, ["y": 1]]))
        #expect(try f.host.find("Picker")?.state["selected"] == 4)
        #expect(try f.host.find("Picker")?.props["title"] == "Again")
    }

    @Test func makingAnActionChecksTheQueryAndTheMethod() throws {
        let f = try PickerFixture()
        let missing = try #require(throws: ScriptError.self) { try f.host.action("select", to: .scope("Nothing")) }
        #expect(missing.id == .noMatch)
        let unknown = try #require(throws: ScriptError.self) { try f.host.action("nope", to: .scope("Picker")) }
        #expect(unknown.id == .doesNotRespond)
    }

    @Test func aMadeActionChecksItsArgumentsAtEachSend() throws {
        let f = try PickerFixture()
        let relay = try f.host.action("relayDemoted", types: ["int"], to: .scope("Picker"))
        try relay.send([5])
        let error = try #require(throws: ScriptError.self) { try relay.send(["five"]) }
        #expect(error.id == .badArgument)
        #expect(f.received.map(\.arguments) == [[.int(5), .double(0), ["x": .double(0), "y": .double(0)]]])
    }
}

@Suite("Host events from Swift")
struct HostEventTests {
    @Test func controlEventsAndAppearanceReachLua() throws {
        let runtime = try Runtime()
        let app = try runtime.load(string: """
            events = {}
            ck.controller("PanelController", {
              componentTreeWillAppear = function(self) events[#events + 1] = "appear" end,
              componentTreeDidDisappear = function(self) events[#events + 1] = "disappear" end,
            })
            return ck.component("Panel", {scope = true,
              render = function(self) return ck.View{class = "UISwitch", attributes = {ck.onControl(self:action("flip", {"Event"}), "valueChanged")}} end,
              flip = function(self, sender, event) events[#events + 1] = event.type .. (event.text and " " .. event.text or "") end,
            })
            """)
        let host = try runtime.mount(app)
        try host.appear()
        #expect(try host.controlEvent("Panel", "valueChanged") == 1)
        #expect(try host.controlEvent("Panel", "touchUpInside") == 0)
        #expect(try host.controlEvent("Panel", "valueChanged", text: "on") == 1)
        try host.disappear()
        #expect(try runtime.global("events").value() == ["appear", "valueChanged", "valueChanged on", "disappear"])
    }
}
