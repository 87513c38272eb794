import CKCore
import CKTestHelpers
import Testing

/// What a view sends for a gesture (SPEC §7), asked in one place (`ViewSpec.sends(for:)`) by
/// taps, the tree model and the Lua face.
@Suite("Gestures as data")
struct GestureTests {
    /// A mounted UIButton whose attributes are `attributes(action)`; `sent` logs `label:eventType`.
    private func button(_ attributes: @escaping ((String) -> Action) -> [ActionAttribute]) throws -> (Host, () -> [String]) {
        let f = CoreFixture()
        var sent: [String] = []
        let action = { (label: String) in
            f.runtime.blockAction(Method(name: label, parameterCount: 0, isVararg: true) { _, args in
                let event = args.lazy.compactMap { $0.object as? Event }.first
                sent.append("\(label):\(event?.type ?? "?")")
            }, identity: .string(label), types: [.className("Event")])
        }
        let spec = ViewSpec(viewClass: "UIButton", actions: attributes(action))
        let cls = ComponentClass(name: "Button")
        cls.view = { _ in spec }
        f.runtime.define(cls)
        let host = try Host(runtime: f.runtime) { _ in try f.make(cls) }
        try host.mount()
        return (host, { sent })
    }

    private static func mixed(_ action: (String) -> Action) -> [ActionAttribute] {
        [ActionAttribute(kind: .control, action: action("a")),
         ActionAttribute(kind: .tap, action: action("b")),
         ActionAttribute(kind: .control, events: ["valueChanged"], action: action("c")),
         ActionAttribute(kind: .control, events: ["touchUpInside", "valueChanged"], action: action("d")),
         ActionAttribute(kind: .control, events: [], action: action("e")),
         ActionAttribute(kind: .tap, action: nil)]
    }

    @Test func aViewSendsForAGestureTheActionsOfTheAttributesAnsweringIt() {
        let made = Runtime()
        let action = { (s: String) in made.selectorAction(s, types: [.className("Event")]) }
        let spec = ViewSpec(viewClass: "UIButton", actions: Self.mixed(action))
        #expect(spec.sends(for: .tap).map(\.selector) == ["b"])
        #expect(spec.sends(for: .touchUpInside).map(\.selector) == ["a", "d"])
        #expect(spec.sends(for: .control("valueChanged")).map(\.selector) == ["c", "d"])
        #expect(spec.sends(for: .control("tap")).isEmpty)
    }

    @Test func hostTapSendsEachTapActionThenEachTouchUpInsideInAttributeOrder() throws {
        let (host, sent) = try button(Self.mixed)
        #expect(try host.tap("Button") == 3)
        #expect(sent() == ["b:tap", "a:touchUpInside", "d:touchUpInside"])
        #expect(try host.controlEvent("Button", "valueChanged") == 2)
        #expect(sent().suffix(2) == ["c:valueChanged", "d:valueChanged"])
        #expect(try host.controlEvent("Button", "tap") == 0)
    }

    @Test func theTreeModelListsOneActionPerGestureAnswered() throws {
        let (host, _) = try button(Self.mixed)
        let events = try host.tree()!.actions.map(\.event)
        #expect(events == ["touchUpInside", "tap", "valueChanged", "touchUpInside", "valueChanged", "tap"])
    }

    @Test func eachKindAnswersItsDefaultAndHasItsOwnNames() {
        for kind in Gesture.Kind.allCases {
            #expect(kind.traits.byDefault.kind == kind)
            #expect(ActionAttribute(kind: kind, action: nil).gestures == [kind.traits.byDefault])
        }
        let traits = Gesture.Kind.allCases.map(\.traits)
        #expect(Set(traits.map(\.name)).count == traits.count && Set(traits.map(\.function)).count == traits.count)
        #expect(Gesture.hostTap == [.tap, .control("touchUpInside")])
    }
}
