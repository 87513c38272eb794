/// What a user does to a view that makes it send actions (SPEC §7): a tap, or a named control
/// event. Data, not a string compared in several places: taps, the tree model, the Lua face
/// and the builder ask a gesture's `kind` for everything that differs by kind.
public struct Gesture: Hashable, Sendable {
    /// Adding a kind is one case here and one row in `traits`; every user reads the traits (the
    /// `ck` function making its attributes, `ck.onTap`, is made for each case).
    public enum Kind: CaseIterable, Sendable {
        case tap
        case control
    }

    public let kind: Kind
    /// The sent `Event`'s `type`: `"tap"`, or the control event's name.
    public let name: String

    public static let tap = Gesture(kind: .tap, name: "tap")
    public static func control(_ event: String) -> Gesture { Gesture(kind: .control, name: event) }
    /// A control's default event: `ck.onControl` without events, `ck.Button`'s `action`.
    public static let touchUpInside = control("touchUpInside")
    /// What `host:tap` does, in order (SPEC §7): each tap action, then each `touchUpInside`
    /// control action.
    public static let hostTap: [Gesture] = [.tap, .touchUpInside]

    /// UIControl's events (`UIControl.Event`), the ones ckrun and the live view send by name;
    /// any other name is an app's own, which only a view that registers it answers.
    public static let uiControlEvents = ["touchDown", "touchDownRepeat", "touchDragInside", "touchDragOutside", "touchDragEnter",
                                         "touchDragExit", "touchUpInside", "touchUpOutside", "touchCancel", "valueChanged",
                                         "primaryActionTriggered", "menuActionTriggered", "editingDidBegin", "editingChanged",
                                         "editingDidEnd", "editingDidEndOnExit"]
}

extension Gesture.Kind {
    /// Everything that differs by kind.
    public struct Traits: Sendable {
        /// The attribute's `kind` in Lua (`"tap"`, `"control"`).
        public let name: String
        /// The `ck` function that makes such an attribute (`onTap`), for messages and `tostring`.
        public let function: String
        /// Only control views take it (else `[notAControl]`).
        public let needsControl: Bool
        /// The attribute lists its gestures' names (`attribute.events`, `tostring`'s `on …`).
        public let listsEvents: Bool
        /// What an attribute of this kind answers when no events are named.
        public let byDefault: Gesture
    }

    /// The one switch over kinds.
    public var traits: Traits {
        switch self {
        case .tap: Traits(name: "tap", function: "onTap", needsControl: false, listsEvents: false, byDefault: .tap)
        case .control: Traits(name: "control", function: "onControl", needsControl: true, listsEvents: true, byDefault: .touchUpInside)
        }
    }
}
