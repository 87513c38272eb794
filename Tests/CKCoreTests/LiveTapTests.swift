import CKCore
import CKTestHelpers
import Testing

/// What the live view (`--tui`) asks of the core: a tap on a component it holds (the path
/// `host:tap` takes), and a trace of what each handler received.
@Suite("Taps from a live view, traced")
struct LiveTapTests {
    /// A Card (scoped, handling `hit` with `parameters` parameters after self) around a UIButton
    /// whose touchUpInside sends `hit` typed {"Event"}; `received` gets the handler's arguments.
    private func card(parameters: Int, received: @escaping ([Value]) -> Void) throws -> (CoreFixture, Host) {
        let f = CoreFixture()
        let action = f.runtime.selectorAction("hit", types: [.className("Event")])
        let button = ComponentClass(name: "Button")
        button.view = { _ in ViewSpec(viewClass: "UIButton", actions: [ActionAttribute(kind: .control, action: action)]) }
        f.runtime.define(button)
        let card = f.component("Card", scope: true) { _ in try f.make(button) }
        card.setMethod(f.handler("hit", parameters: parameters, into: received), named: "hit")
        let host = try Host(runtime: f.runtime) { _ in try f.make(card) }
        try host.mount()
        return (f, host)
    }

    @Test func tappingAComponentSendsWhatHostTapSends() throws {
        var calls = 0
        let (f, host) = try card(parameters: 2) { _ in calls += 1 }
        let button = try #require(try host.find("Button"))
        #expect(try host.tap(button) == 1)
        #expect(try host.tap(host.root!) == 1, "a component without a view taps the first view below it")
        #expect(try host.tap("Button") == 1)
        #expect(calls == 3)
        let other = try Host(runtime: f.runtime) { _ in nil }
        // Another host's component is not tapped: the script gave the wrong host (atk-stale 04).
        #expect(throws: RuntimeError.self) { try other.tap(button) }
    }

    @Test func aTraceSaysWhatTheHandlerReceivedTypedAsDeclared() throws {
        let (f, host) = try card(parameters: 2) { _ in }
        let tracer = Tracer()
        f.runtime.tracer = tracer
        _ = try host.tap(try #require(try host.find("Button")))
        let entry = try #require(tracer.entries.first)
        #expect(entry.received.map(\.type) == ["sender", "Event"])
        #expect((entry.received[0].value.object as? Component)?.name == "Button")
        #expect((entry.received[1].value.object as? Event)?.type == "touchUpInside")
        #expect(entry.handler?.name == "Card")
    }

    @Test func aHandlerDeclaringFewerParametersReceivesFewer() throws {
        let (f, host) = try card(parameters: 0) { _ in }
        let tracer = Tracer()
        f.runtime.tracer = tracer
        _ = try host.tap("Button")
        #expect(tracer.entries.first?.received.isEmpty == true, "promotion: the handler takes nothing")
        #expect(tracer.entries.first?.handler != nil)
    }
}
