/// What a component asks to be mounted into: a view class and its attributes.
public struct ViewSpec {
    public var viewClass: String
    /// Plain attributes, carried for scripts (`view.attributes`).
    public var attributes: Value
    /// Tap and control actions, in attribute order.
    public var actions: [ActionAttribute]

    public init(viewClass: String, attributes: Value = .nil, actions: [ActionAttribute] = []) {
        self.viewClass = viewClass
        self.attributes = attributes
        self.actions = actions
    }
}

/// `ck.onTap(action)` or `ck.onControl(action, events)`, holding the action promoted to `{"Event"}`.
public final class ActionAttribute: RuntimeObject {
    public enum Kind: Equatable {
        case tap
        case control(events: [String])
    }

    public let kind: Kind
    public let action: Action?

    public init(kind: Kind, action: Action?) {
        self.kind = kind
        self.action = action
    }

    public override var typeName: String { "attribute" }
}

/// A mounted view: a runtime object with a superview, subviews and its mounted component.
public final class View: RuntimeObject {
    public let viewClass: String
    public internal(set) var attributes: Value
    public internal(set) var actions: [ActionAttribute]
    public internal(set) weak var superview: View?
    public internal(set) var subviews: [View] = []
    /// The component mounted in this view, or nil once unmounted. Strong: unmounting clears it
    /// (so no cycle outlives the mount), and a weak reference would cost every mounted
    /// component a 32-byte side table.
    public internal(set) var component: Component?
    /// Set for a host's hosting view.
    public internal(set) weak var hostingHost: Host?

    init(spec: ViewSpec) {
        viewClass = spec.viewClass
        attributes = spec.attributes
        actions = spec.actions
    }

    public override var typeName: String { "View" }

    func removeFromSuperview() {
        guard let s = superview else { return }
        if let i = s.subviews.firstIndex(where: { $0 === self }) { s.subviews.remove(at: i) }
        superview = nil
    }

    func add(_ child: View, at index: Int) {
        if child.superview === self, let i = subviews.firstIndex(where: { $0 === child }) {
            if i == index { return }
            subviews.remove(at: i)
        } else {
            child.removeFromSuperview()
        }
        subviews.insert(child, at: min(index, subviews.count))
        child.superview = self
    }
}

/// The view classes `ck.onControl` accepts (SPEC §7), extended by `ck.registerControlClass`.
public struct ControlClasses {
    public private(set) var names: Set<String> = [
        "UIControl", "UIButton", "UISwitch", "UISlider", "UITextField", "UISegmentedControl",
    ]

    public init() {}

    public mutating func register(_ name: String) { names.insert(name) }
    public func contains(_ name: String) -> Bool { names.contains(name) }
}
