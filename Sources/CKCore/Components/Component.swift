/// One component instance: an immutable snapshot made by a build. The core links
/// instances into the tree; scripts see only props, state, class, name, key and scope.
public final class Component: RuntimeObject {
    // Layout (a scoped leaf holds one; docs/performance.md counts its bytes): declared first, an
    // Int32 takes the 4 bytes after `bridgeSlot`; each Bool or Int32 declared after a Value takes
    // the Value's tail padding (after its 17 bytes), not 8 more.
    var placedInBuild: Int32 = 0
    public let componentClass: ComponentClass
    public let props: Value
    public internal(set) var isMounted = false
    /// The build whose search for dirty ancestors last passed here (`Builder.hasDirtyAncestor`).
    var walkedInBuild: Int32 = 0
    public let key: Value
    var rendered = false
    /// Its children were given at construction (`giveChildren`).
    var childrenGiven = false
    /// `Class(props)` already found its props unequal to its scope's instance
    /// (`Runtime.reusableInstance`): the build does not compare them again.
    var propsChanged = false
    private var indexInParentStorage: Int32 = 0
    public internal(set) var scope: Scope?
    /// The scope's state when this instance was built.
    public internal(set) var state: Value = .nil
    /// In the host's current tree: set when a committed build places it, cleared when it leaves
    /// (`Commit`), so a dirty scope's component needs no walk to the root to know it.
    var isInTree = false
    /// With `walkedInBuild`: whether this component or an ancestor has a scope with updates in
    /// that build (`Builder.hasDirtyAncestor`).
    var dirtyAtOrAbove = false
    /// `generation`, in the state's tail padding: clamped at Int32.max (2.1 billion builds of a host).
    private var generationStorage: Int32
    /// The scope enclosing this instance's construction (build nesting, not layout).
    public internal(set) var enclosingScope: Scope?
    /// The code that constructed it (`Class(props)` ran there), which is not always the render
    /// of the component that placed it: a `header = ck.Button{…}` prop is made by the parent's.
    /// (One word: a class reference with three cases in its spare bits.)
    public internal(set) var madeBy: Maker = .script
    /// Shared with the host's other components: no weak reference per component.
    var hostLink: HostLink?
    public var host: Host? { hostLink?.host }

    // Tree links, owned by the core. `parent` and `previous` point at a component that may go
    // first (a script can hold any instance), so they go through its `BackLink`.
    public internal(set) var parent: Component? {
        get { parentLink?.target }
        set { parentLink = newValue.map { BackLink.of($0, in: &$0.ownLink) } }
    }
    public internal(set) var children: [Component] = []
    /// Each child's entry in the children list the script wrote, when that list had holes
    /// (`cond and X{}` gave `false` or nil before a child); nil: child i stands at entry i + 1
    /// (`slot(ofChildAt:)`, the one rule that pairs a child with the previous generation's).
    private(set) var childSlots: [Int32]?
    /// The generation of the build that made this instance; for one built outside any build, in
    /// another host's build or an earlier one that did not place it, that of the build that first
    /// placed it (before: 0, or the build's that made it; `joinFirstBuild`).
    public var generation: Int { Int(generationStorage) }

    /// An instance first rendered by another build than the one that built it (none: built
    /// outside any build) belongs from then on to the build that rendered it: the pure rule's
    /// "built since the last class definition" (`BuildContext.mayKeep`) compares generations of
    /// one host, and then holds for it as for one that build's render made (atk-stale 07).
    func joinFirstBuild(_ generation: Int) {
        guard !rendered else { return }
        generationStorage = Int32(clamping: generation)
    }
    var indexInParent: Int {
        get { Int(indexInParentStorage) }
        set { indexInParentStorage = Int32(truncatingIfNeeded: newValue) }
    }
    /// The previous generation's instance at this place, while building and mounting.
    var previous: Component? {
        get { previousLink?.target }
        set { previousLink = newValue.map { BackLink.of($0, in: &$0.ownLink) } }
    }
    private(set) var parentLink: BackLink<Component>?
    private var previousLink: BackLink<Component>?
    /// Made when something first links to this component.
    private var ownLink: BackLink<Component>?
    /// What points back at this component without keeping it (a parent link, an action's target).
    var backLink: BackLink<Component> { BackLink.of(self, in: &ownLink) }
    var viewSpec: ViewSpec?

    // Mounting.
    public internal(set) var view: View?

    init(componentClass: ComponentClass, props: Value, key: Value, generation: Int) {
        self.componentClass = componentClass
        self.props = props
        self.key = key
        generationStorage = Int32(clamping: generation)
    }

    /// In its host's current tree, the host not destroyed. (A host collected undestroyed leaves
    /// its tree marked: a handle kept then goes with the arena its handles carry.)
    public override var keepsItsHandle: Bool { isInTree && hostLink?.wasDestroyed == false }

    deinit {
        leaveRemains()
        ownLink?.target = nil
        Reaper.release(self)
    }

    override var holdsUniqueLinks: Bool {
        Reaper.unique(&scope) || Reaper.unique(&enclosingScope) || Reaper.unique(&view) || Reaper.anyUnique(&children)
    }

    override func moveLinks(into stack: inout [RuntimeObject]) {
        // Children that go with it need no remains of it: only one a script holds names it later,
        // or one that leaves remains itself (something links to it: a held grandchild), whose
        // path goes on through this one (atk-stale 02: `Stack/Row#1` once the host was collected).
        for i in children.indices where isKnownUniquelyReferenced(&children[i]) && !children[i].isLinkedTo {
            children[i].parentLink = nil
        }
        leaveRemains()
        stack.append(contentsOf: children as [RuntimeObject])
        setChildren([], slots: nil)
        if let s = scope { stack.append(s); scope = nil }
        if let s = enclosingScope { stack.append(s); enclosingScope = nil }
        if let v = view { stack.append(v); view = nil }
    }

    /// A built-in's children, read from its props when it is constructed (`ck.Stack{children =
    /// …}`, as ComponentKit's stacks take theirs): its build uses them and does not call the
    /// class's `children`. Once, before the component is built into a tree.
    public func giveChildren(_ children: [Component], slots: [Int32]? = nil) {
        guard !rendered else { return }
        setChildren(children, slots: slots)
        childrenGiven = true
    }

    /// Its children, with their entries in the script's list (nil: no holes before any).
    func setChildren(_ children: [Component], slots: [Int32]?) {
        self.children = children
        childSlots = slots
    }

    /// THE RULE for a child's place among its siblings across generations (SPEC §5, React's
    /// rule): the entry of the script's children list it came from, `false` and nil entries
    /// counted, so an optional sibling appearing before it (`cond and X{}`) leaves it in place.
    /// 1-based; a render's single child is at 1.
    func slot(ofChildAt index: Int) -> Int {
        guard let slots = childSlots, index < slots.count else { return index + 1 }
        return Int(slots[index])
    }

    /// The index in `children` of the child at entry `slot` of the list, if one stands there.
    func childIndex(atSlot slot: Int) -> Int? {
        guard let slots = childSlots else { return slot >= 1 && slot <= children.count ? slot - 1 : nil }
        var low = 0, high = slots.count
        while low < high {
            let mid = (low + high) / 2
            if Int(slots[mid]) < slot { low = mid + 1 } else { high = mid }
        }
        return low < slots.count && low < children.count && Int(slots[low]) == slot ? low : nil
    }

    /// The index in `children` of the first child at entry `slot` of the list or after it
    /// (`children.count`: none is). Entries grow with the index.
    func firstChildIndex(fromSlot slot: Int) -> Int {
        guard let slots = childSlots else { return min(max(slot - 1, 0), children.count) }
        var low = 0, high = min(slots.count, children.count)
        while low < high {
            let mid = (low + high) / 2
            if Int(slots[mid]) < slot { low = mid + 1 } else { high = mid }
        }
        return low
    }

    public override var typeName: String { componentClass.name }
    public var name: String { componentClass.name }
    /// Its scope's controller; for an instance whose scope left the tree, the invalidated one it
    /// had, while that lives (`Scope.answeringController`).
    public var controller: Controller? { scope?.answeringController }

    /// Whether something links to this component (a child a script may hold names it as parent).
    private var isLinkedTo: Bool { ownLink != nil && !isKnownUniquelyReferenced(&ownLink) }

    /// Leaves `Remains` in this component's link if something still links to it (once, before
    /// its scope goes: `Reaper` may take that before `deinit`). Only a linked component pays.
    private func leaveRemains() {
        guard ownLink != nil, !isKnownUniquelyReferenced(&ownLink), ownLink!.remains == nil else { return }
        ownLink!.remains = Remains(of: self)
    }

    /// Whether the instance that replaced this one in its scope holds the same props (a state
    /// update re-renders a component with its props): then this one holds nothing the tree does not.
    public var propsLiveOn: Bool {
        guard let now = scope?.component, now !== self else { return false }
        if case .table(let mine) = props, case .table(let theirs) = now.props { return mine === theirs }
        return now.props.rawEquals(props)
    }

    /// Lets go of the children of an instance that left the tree (`Runtime.onComponentsLeft`):
    /// no script sees them through it, and a held stale instance then keeps only itself alive.
    public func letGoOfChildrenAfterLeaving() {
        guard !isInTree, !children.isEmpty else { return }
        setChildren([], slots: nil)
    }

    /// The nearest ancestor whose class renders in script (`renderDefinition`): the render that
    /// built this component, for messages that say where it was made; nil: the host's provider.
    public var madeInRenderOf: Component? {
        var owner = parent
        while let o = owner, o.componentClass.renderDefinition == nil { owner = o.parent }
        return owner
    }

    /// `Item#3`: the class name with its scope's identifier and its key (`ScopeName`).
    public var label: String {
        ScopeName.label(name, identifier: scope?.identifier ?? .nil, key: key)
    }

    /// The first view at or below this component, in depth-first order.
    public var firstView: View? {
        var stack: [Component] = [self]
        while let c = stack.popLast() {
            if let v = c.view { return v }
            stack.append(contentsOf: c.children.reversed())
        }
        return nil
    }
}
