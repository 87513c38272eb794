/// What a component asks to be mounted into: a view class and its attributes. Immutable and
/// shared: every instance of a class with a constant view spec, and its view, hold the same one.
public final class ViewSpec {
    public let viewClass: String
    /// Plain attributes, carried for scripts (`view.attributes`).
    public let attributes: Value
    /// Tap and control actions, in attribute order.
    public let actions: [ActionAttribute]

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
    /// Its position in its superview's `subviews` (kept by the mounter), or -1 for a view that
    /// arrived during a mount pass that will put that list in order. First: it fills the
    /// padding after `bridgeSlot`.
    var indexInSuperview: Int32 = 0
    /// What it shows: replaced when the next generation's component keeps this view.
    var spec: ViewSpec
    public var viewClass: String { spec.viewClass }
    public var attributes: Value { spec.attributes }
    public var actions: [ActionAttribute] { spec.actions }
    /// Through the superview's `BackLink`, as a component's parent is.
    public internal(set) var superview: View? {
        get { superviewLink?.target }
        set { superviewLink = newValue.map { BackLink.of($0, in: &$0.ownLink) } }
    }
    private var superviewLink: BackLink<View>?
    private var ownLink: BackLink<View>?
    public internal(set) var subviews: [View] = []
    /// The component mounted in this view, or nil once unmounted. Strong: unmounting clears it
    /// (so no cycle outlives the mount), and a weak reference would cost every mounted
    /// component a 32-byte side table.
    public internal(set) var component: Component?
    /// Set for a host's hosting view.
    public internal(set) weak var hostingHost: Host?
    /// The mount pass that last touched this view's subviews, and whether they then need to
    /// be put in tree order (anything but appends to an empty list in one depth-first pass).
    /// `Int32`s and a `Bool`: the object stays in glibc's 96-byte chunk.
    var touchedInPass: Int32 = 0
    var needsOrdering = false
    /// The mount walk that last met one of this view's subviews already in place, and that
    /// subview's index: a later one at a lower index means its siblings were reordered.
    var keptInWalk: Int32 = 0
    var lastKeptIndex: Int32 = 0

    init(spec: ViewSpec) {
        self.spec = spec
    }

    deinit {
        ownLink?.target = nil
        Reaper.release(self)
    }

    override var holdsUniqueLinks: Bool { Reaper.unique(&component) || Reaper.anyUnique(&subviews) }

    override func moveLinks(into stack: inout [RuntimeObject]) {
        stack.append(contentsOf: subviews as [RuntimeObject])
        subviews = []
        if let c = component { stack.append(c); component = nil }
    }

    public override var typeName: String { "View" }
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
