/// What a component asks to be mounted into: a view class and its attributes. Immutable and
/// shared: every instance of a class with a constant view spec, and its view, hold the same one.
/// Open for the bridge, whose view functions' specs keep their attributes themselves (one object
/// a row where a spec and a reference were two).
open class ViewSpec {
    public let viewClass: String
    private let givenAttributes: Value
    /// Tap and control actions, in attribute order.
    public let actions: [ActionAttribute]

    public init(viewClass: String, attributes: Value = .nil, actions: [ActionAttribute] = []) {
        self.viewClass = viewClass
        givenAttributes = attributes
        self.actions = actions
    }

    /// Plain attributes, carried for scripts (`view.attributes`).
    open var attributes: Value { givenAttributes }
}

/// A host's hosting view's spec: the host it belongs to, through its link (the host owns the view).
final class HostingViewSpec: ViewSpec {
    let link: HostLink
    var host: Host? { link.host }

    init(host: Host) {
        link = host.link
        super.init(viewClass: "HostingView")
    }
}

extension ViewSpec {
    /// What this view sends for `gesture` (SPEC §7): the actions of the attributes that answer
    /// it, in attribute order (a nil action's attribute sends nothing). Taps, the tree model and
    /// the Lua face all read attributes through `Gesture`, never by comparing names.
    public func sends(for gesture: Gesture) -> [Action] {
        actions.compactMap { $0.gestures.contains(gesture) ? $0.action : nil }
    }
}

/// `ck.onTap(action)` or `ck.onControl(action, events)`: the action, promoted to `{"Event"}`,
/// that a view sends for each of `gestures`.
public final class ActionAttribute: RuntimeObject {
    /// Which `ck` function made it (`onControl` with no events answers nothing, but is a control's).
    public let kind: Gesture.Kind
    /// The gestures it answers, in the order given, each of `kind`.
    public let gestures: [Gesture]
    public let action: Action?

    /// `events`: the gestures' names (`ck.onControl`'s events); nil: the kind's default.
    public init(kind: Gesture.Kind, events: [String]? = nil, action: Action?) {
        self.kind = kind
        gestures = events.map { $0.map { Gesture(kind: kind, name: $0) } } ?? [kind.traits.byDefault]
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
    /// What this view sends for `gesture` (`ViewSpec.sends(for:)`).
    public func sends(for gesture: Gesture) -> [Action] { spec.sends(for: gesture) }
    /// Through the superview's `BackLink`, as a component's parent is.
    public internal(set) var superview: View? {
        get { superviewLink?.target }
        set { superviewLink = newValue.map { BackLink.of($0, in: &$0.ownLink) } }
    }
    private var superviewLink: BackLink<View>?
    private var ownLink: BackLink<View>?
    /// `superview === view`, by the link alone: no strong reference made (a reorder of 1,000
    /// rows asks it of each).
    func isSubview(of view: View) -> Bool { superviewLink != nil && superviewLink === view.ownLink }
    /// What points back at this view without keeping it (a subview's superview, an action's target).
    var backLink: BackLink<View> { BackLink.of(self, in: &ownLink) }
    public internal(set) var subviews: [View] = []
    /// The component mounted in this view, or nil once unmounted. Strong: unmounting clears it
    /// (so no cycle outlives the mount), and a weak reference would cost every mounted
    /// component a 32-byte side table.
    public internal(set) var component: Component?
    /// Set for a host's hosting view (its spec, a `HostingViewSpec`, holds the host): a weak
    /// reference in every view cost 8 bytes a view for the one view a host has.
    public internal(set) var hostingHost: Host? {
        get { isHosting ? unsafeDowncast(spec, to: HostingViewSpec.self).host : nil }
        set {
            isHosting = newValue != nil
            if isHosting { spec = HostingViewSpec(host: newValue!) }
        }
    }
    /// The mount pass that last touched this view's subviews, and whether they then need to
    /// be put in tree order (anything but appends to an empty list in one depth-first pass).
    /// `Int32`s, then the `Bool`s last: the object ends at 78 bytes, not 80.
    var touchedInPass: Int32 = 0
    /// The mount walk that last met one of this view's subviews already in place, and that
    /// subview's index: a later one at a lower index means its siblings were reordered.
    var keptInWalk: Int32 = 0
    var lastKeptIndex: Int32 = 0
    var needsOrdering = false
    private var isHosting = false

    init(spec: ViewSpec) {
        self.spec = spec
    }

    deinit {
        ownLink?.target = nil
        // An unmounted leaf (every row a replace drops) holds nothing to cascade into: asked
        // directly, not through the reaper's dynamic check (~180 instructions a view).
        if component != nil || !subviews.isEmpty { Reaper.release(self) }
    }

    override var holdsUniqueLinks: Bool { Reaper.unique(&component) || Reaper.anyUnique(&subviews) }

    override func moveLinks(into stack: inout [RuntimeObject]) {
        stack.append(contentsOf: subviews as [RuntimeObject])
        subviews = []
        if let c = component { stack.append(c); component = nil }
    }

    public override var typeName: String { "View" }
    /// While mounted; a hosting view until its host is destroyed.
    public override var keepsItsHandle: Bool { hostingHost?.keepsItsHandle ?? (component?.isMounted == true) }
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
