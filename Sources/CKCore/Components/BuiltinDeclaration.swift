/// One built-in component class, declared once (`Builtin.all`): the bridge makes the class
/// from it, the name check warns about props it does not list, and tests hold docs/api.md and
/// types/ck.lua to it. How its view shows on a screen is its view class's (`ViewPresentation`). A class: the core's classes point at
/// their declaration, one word to test for nil on every `Class(props)`.
public final class Builtin: Sendable {
    public let name: String
    /// The view class it mounts, when fixed (`ck.View` reads it from its `class` prop, whose
    /// role is `.viewClass`; `ck.Stack` has no view).
    public let viewClass: String?
    public let props: [BuiltinProp]
    /// One line: what it is.
    public let doc: String
    /// How it is made, gathered from the props' roles.
    public let made: Making

    public init(_ name: String, viewClass: String? = nil, doc: String, props: [BuiltinProp]) {
        self.name = name
        self.viewClass = viewClass
        self.doc = doc
        self.props = props
        made = Making(props)
    }

    /// Whether it is mounted into a view (of a fixed class, or one a prop names).
    public var mountsView: Bool { viewClass != nil || made.viewClassProp != nil }

    /// Every prop a script may pass: the declared ones and `key`, which every component takes.
    public var propNames: [String] { props.map(\.name) + ["key"] }

    /// How its view shows on a screen: its view class's row of `ViewPresentation` (none for a
    /// built-in without a fixed view class, or one whose class has no row).
    public var presentation: ViewPresentation { ViewPresentation.of(viewClass) ?? ViewPresentation() }

    /// The props by what the builder does with them: children, a child, a view (its class, an
    /// attributes table, plain attributes, action props sent on gestures).
    public struct Making: Sendable {
        public private(set) var children: String?
        public private(set) var child: String?
        public private(set) var viewClassProp: String?
        public private(set) var attributesTable: String?
        public private(set) var attributes: [String] = []
        public private(set) var actions: [(prop: String, sentOn: Gesture, eventsProp: String?)] = []
        /// The props that say how the children are laid out (`StackLayout`).
        public private(set) var layout: [String] = []

        /// The one switch over roles: a new role fails to compile here. `events` is a list, not
        /// a dictionary: this runs at every start-up, and the first `[String: String]` checks
        /// `String: Hashable` by scanning every conformance record in the binary (0.34M instructions).
        init(_ props: [BuiltinProp]) {
            var events: [(of: String, prop: String)] = []
            for p in props {
                switch p.role {
                case .children: children = p.name
                case .child: child = p.name
                case .viewClass: viewClassProp = p.name
                case .attributes: attributesTable = p.name
                case .attribute: attributes.append(p.name)
                case .action(let gesture): actions.append((p.name, gesture, nil))
                case .events(let of): events.append((of, p.name))
                case .layout: layout.append(p.name)
                }
            }
            actions = actions.map { action in
                (action.prop, action.sentOn, events.first { $0.of == action.prop }?.prop)
            }
        }
    }
}

/// A prop of a built-in: its name, what the built-in does with it, and one line of doc.
public struct BuiltinProp: Sendable {
    public let name: String
    public let role: Role
    public let doc: String

    public init(_ name: String, _ role: Role, _ doc: String) {
        self.name = name
        self.role = role
        self.doc = doc
    }

    public enum Role: Sendable {
        /// Components in index order, `nil` and `false` entries skipped: the built-in's children.
        case children
        /// One component, or nil: its only child.
        case child
        /// The view's class name.
        case viewClass
        /// The view's attributes table, `ck.onTap`/`ck.onControl` attributes included.
        case attributes
        /// A plain view attribute of the same name, of a type.
        case attribute(LuaType)
        /// An action prop typed `{"Event"}`, sent on a gesture (or those an `events` prop names).
        case action(sentOn: Gesture)
        /// The control events the action prop `of` is sent on instead: a name or a list.
        case events(of: String)
        /// How the children are laid out (`StackLayout`'s props), checked at `Class(props)`; a
        /// live view places the children by it.
        case layout(type: String)
    }

    /// A plain attribute's type, as the type stubs write it.
    public enum LuaType: String, Sendable {
        case string, boolean, number, any
    }

    /// The type as types/ck.lua writes it (LuaLS).
    public var stubType: String {
        switch role {
        case .children: "(ck.Component|false)[]"
        case .child: "ck.Component|false"
        case .viewClass: "string"
        case .attributes: "table"
        case .attribute(let type): type.rawValue
        case .action: "ck.Action"
        case .events: "string|string[]"
        case .layout(let type): type
        }
    }

    /// The argument types of an action prop (SPEC §7: a gesture sends an `Event`).
    nonisolated(unsafe) public static let actionTypes: [TypeSpec] = [.className("Event")]
}
