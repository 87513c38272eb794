extension Builtin {
    /// The built-ins (SPEC §2), in the order `ck` gets them. Adding one is a declaration here,
    /// its section in docs/api.md and its classes in types/ck.lua (`BuiltinDeclarationTests`
    /// fail until both say what this says).
    public static let all: [Builtin] = [
        Builtin("Stack", doc: "Several children, in index order; no view of its own. How they are laid out (ComponentKit's stack layout) is for a screen: `ckrun --tui` draws them by it.", props: [
            BuiltinProp("children", .children, "the components, in index order; `nil` and `false` entries are skipped (`cond and X{}`)"),
        ] + StackLayout.props.map { BuiltinProp($0.name, .layout(type: $0.stubType), $0.doc) }),
        Builtin("View", doc: "A view of any class, with attributes and at most one child.", props: [
            BuiltinProp("class", .viewClass, "the view class's name (`\"UIView\"`)"),
            BuiltinProp("attributes", .attributes, "the view's attributes, `ck.onTap`/`ck.onControl` attributes included"),
            BuiltinProp("child", .child, "one component, or nil or false for none"),
        ]),
        Builtin("Text", viewClass: "UILabel", doc: "A label.", props: [
            BuiltinProp("text", .attribute(.any), "what it shows (attribute `text`)"),
        ]),
        Builtin("Button", viewClass: "UIButton", doc: "A button.", props: [
            BuiltinProp("title", .attribute(.any), "what it shows (attribute `title`)"),
            BuiltinProp("action", .action(sentOn: .touchUpInside), "sent with an `Event` on `touchUpInside`, or on the `events`"),
            BuiltinProp("events", .events(of: "action"), "the control events `action` is sent on instead: a name or a list"),
        ]),
    ]

    /// The built-in named `name`, if any.
    public static func named(_ name: String) -> Builtin? { all.first { $0.name == name } }
}
