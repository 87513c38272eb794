/// Mounts parent before children with `didMount` after all descendants; unmounts what
/// vanished after the new generation is mounted. Iterative: depth is unbounded.
struct Mounter {
    let host: Host
    /// Held for the mount, as Builder holds it: `host.runtime` is unowned, and each read of it
    /// costs a checked retain that takes the slow path (~90 instructions).
    private let runtime: Runtime
    private var pass: Int32
    /// Numbers each depth-first walk (`mount` call): within one, views in place arrive in tree order.
    private var walk: Int32 = 0
    /// Views whose subviews changed, each once.
    private var touched: [View] = []
    /// More than one depth-first pass: appends may then arrive out of tree order.
    private var mountCalls = 0
    private var firstError: Error?

    init(host: Host) {
        self.host = host
        runtime = host.runtime
        pass = Mounter.nextPass(runtime)
    }

    /// Passes and walks are marks compared for equality (0: never); they wrap after 2^32.
    private static func nextPass(_ runtime: Runtime) -> Int32 { next(&runtime.lastMountPass) }

    private static func next(_ counter: inout Int32) -> Int32 {
        counter &+= 1
        if counter == 0 { counter = 1 }
        return counter
    }

    private enum Step {
        /// The children (as the parent had them when entered) from `next` on, in order: a kept
        /// child or a leaf is done in the walk, with no step of its own (1,000 rows made 1,000).
        case children([Component], next: Int, superview: View)
        /// After the subtree: a controller's didMount/didRemount (no step without a controller).
        case exit(Controller, didMount: Bool, isUpdate: Bool)
    }

    // MARK: Mount

    mutating func mount(_ top: Component, previous: Component?, in superview: View) {
        mountCalls += 1
        walk = Mounter.next(&runtime.lastMountWalk)
        var steps: [Step] = []
        visit(top, previous: previous, superview: superview, steps: &steps)
        while let step = steps.popLast() {
            switch step {
            case let .children(children, next, superview):
                enterChildren(children, from: next, superview: superview, steps: &steps)
            case let .exit(k, didMount, isUpdate):
                if didMount {
                    call(k, "didMount")
                } else {
                    call(k, "didRemount")
                }
                if isUpdate { call(k, "didUpdateComponent") }
            }
        }
    }

    /// Enters `node` and schedules its exit and then its children (popped first).
    private mutating func visit(_ node: Component, previous: Component?, superview: View, steps: inout [Step]) {
        if node.isMounted {
            // A kept instance: no callbacks; only its top views may need a new superview.
            reattach(node, to: superview)
            return
        }
        let (exit, childSuperview) = enter(node, previous: previous ?? node.previous, superview: superview)
        if let exit { steps.append(exit) }
        if !node.children.isEmpty { steps.append(.children(node.children, next: 0, superview: childSuperview)) }
    }

    /// Enters the children from `start` on, in order, until one schedules steps of its own (its
    /// children, its exit): the rest wait below those. A kept child is reattached, a leaf
    /// without a controller entered, in the loop.
    private mutating func enterChildren(_ children: [Component], from start: Int, superview: View, steps: inout [Step]) {
        var i = start
        while i < children.count {
            let child = children[i]
            i += 1
            let scheduled = steps.count
            visit(child, previous: nil, superview: superview, steps: &steps)
            if steps.count > scheduled {
                if i < children.count { steps.insert(.children(children, next: i, superview: superview), at: scheduled) }
                return
            }
        }
    }

    private mutating func enter(_ node: Component, previous: Component?, superview: View) -> (Step?, View) {
        node.isMounted = true
        if node.hostLink !== host.link { node.hostLink = host.link }
        var view: View?
        if let spec = node.viewSpec {
            if let old = previous?.view, old.viewClass == spec.viewClass, old.component === previous || old.component == nil {
                view = old
                old.spec = spec
            } else {
                view = View(spec: spec)
            }
            view!.component = node
            place(view!, in: superview)
        }
        node.view = view
        let childSuperview = view ?? superview
        reserveSubviews(in: childSuperview, for: node)

        guard let k = node.scope?.controller, k.component === node, !k.isInvalidated else {
            return (nil, childSuperview)
        }
        let isUpdate = k.lastMountedComponent != nil && k.lastMountedComponent !== node
        k.lastMountedComponent = node
        if k.isMounted, let old = k.mountedComponent, old !== node {
            call(k, "willUpdateComponent")
            call(k, "willRemount")
            if k.acquiredView !== view {
                if k.acquiredView != nil { call(k, "componentWillRelinquishView"); k.acquiredView = nil }
                if let view { k.acquiredView = view; call(k, "componentDidAcquireView", [.object(view)]) }
            }
            k.mountedComponent = node
            return (.exit(k, didMount: false, isUpdate: true), childSuperview)
        }
        if isUpdate { call(k, "willUpdateComponent") }
        call(k, "willMount")
        if let view { k.acquiredView = view; call(k, "componentDidAcquireView", [.object(view)]) }
        k.isMounted = true
        k.mountedComponent = node
        return (.exit(k, didMount: true, isUpdate: isUpdate), childSuperview)
    }

    /// A superview with no subviews yet gets room for one a child of `node` (mostly what its
    /// children bring): a list of 10,000 rows held an array grown to 16,384 by doubling. Only an
    /// empty one: repeated exact reservations would copy the array each time.
    private func reserveSubviews(in superview: View, for node: Component) {
        if node.children.count > 1, superview.subviews.isEmpty { superview.subviews.reserveCapacity(node.children.count) }
    }

    /// Moves the top views of a kept subtree under `superview` if they are elsewhere.
    private mutating func reattach(_ node: Component, to superview: View) {
        if let v = node.view { place(v, in: superview); return }   // a kept leaf: no stack
        var stack: [Component] = [node]
        while let c = stack.popLast() {
            if let v = c.view {
                place(v, in: superview)
                continue
            }
            stack.append(contentsOf: c.children.reversed())
        }
    }

    /// Appends now; `finish` puts every touched superview's subviews in tree order at once,
    /// so mounting and unmounting n siblings stays O(n log n) at worst.
    private mutating func place(_ view: View, in superview: View) {
        if view.superview === superview {
            checkOrder(of: view, in: superview)
            return
        }
        if let old = view.superview { touch(old) }
        touch(superview, appending: true)
        view.superview = superview
        // An arrival in a list `finish` reorders is no move; elsewhere it stays where it lands.
        view.indexInSuperview = superview.needsOrdering ? -1 : Int32(truncatingIfNeeded: superview.subviews.count)
        superview.subviews.append(view)
    }

    /// A walk meets the views already under a superview in tree order (SPEC §5): one met at a
    /// lower index than the one before it means reordered siblings, which `finish` moves.
    /// Different walks mount disjoint subtrees, whose order among themselves cannot change.
    private mutating func checkOrder(of view: View, in superview: View) {
        let index = view.indexInSuperview
        if superview.keptInWalk == walk, index < superview.lastKeptIndex {
            touch(superview)
            return
        }
        superview.keptInWalk = walk
        superview.lastKeptIndex = index
    }

    /// Records that `view`'s subviews change. Appends to a list that was empty when this pass
    /// first touched it arrive in tree order (one depth-first walk), so `finish` skips them.
    private mutating func touch(_ view: View, appending: Bool = false) {
        if view.touchedInPass != pass {
            view.touchedInPass = pass
            view.needsOrdering = !(appending && view.subviews.isEmpty)
            touched.append(view)
        } else if !appending {
            view.needsOrdering = true
        }
    }

    // MARK: Unmount

    /// Unmounts a whole mounted subtree (`host:unmount()`).
    mutating func unmount(_ top: Component) {
        unmount(top, keep: { _ in false })
    }

    /// Unmounts what the previous generation had under `oldTop` and the new one does not.
    mutating func unmountVanished(_ oldTop: Component, context: BuildContext) {
        unmount(oldTop, keep: { $0.placedInBuild == context.id })
    }

    private enum UnmountStep {
        case enter(Component)
        case exit(Component)
    }

    private mutating func unmount(_ top: Component, keep: (Component) -> Bool) {
        var steps: [UnmountStep] = [.enter(top)]
        while let step = steps.popLast() {
            switch step {
            case .enter(let node):
                guard node.isMounted, !keep(node) else { continue }
                let mountedController = node.scope?.controller.map { $0.mountedComponent === node } ?? false
                if mountedController { call(node.scope!.controller!, "willUnmount") }
                // A leaf without a mounted controller (a row of a replaced list) leaves at once.
                if !mountedController && node.children.isEmpty { leave(node); continue }
                steps.append(.exit(node))
                // What stays (a kept row) is passed over here, not stepped on: no callback
                // mounts or builds before the next pass, so it stays until it would be popped.
                for child in node.children.reversed() where !keep(child) { steps.append(.enter(child)) }
            case .exit(let node):
                leave(node)
            }
        }
    }

    /// After its subtree: `node` is unmounted, its controller told, its view taken out.
    private mutating func leave(_ node: Component) {
        node.isMounted = false
        if let k = node.scope?.controller, k.mountedComponent === node {
            if k.acquiredView != nil { call(k, "componentWillRelinquishView"); k.acquiredView = nil }
            call(k, "didUnmount")
            k.isMounted = false
            k.mountedComponent = nil
        }
        if let v = node.view, v.component === node {
            if let s = v.superview { touch(s) }
            v.superview = nil
            v.component = nil
            if v.handleIsKept { host.runtime.ended(v) }
        }
        node.view = nil
    }

    // MARK: Finish

    /// Puts each touched view's subviews in tree order; raises the first callback error.
    mutating func finish() throws {
        // A callback that mounted or built (another mounter ran) may have changed the tree
        // under this pass's appends: then every touched view is put in order.
        let orderAll = mountCalls > 1 || runtime.lastMountPass != pass
        for view in touched where orderAll || view.needsOrdering { putInOrder(view) }
        touched.removeAll()
        pass = Mounter.nextPass(runtime)
        mountCalls = 0
        if let e = firstError {
            firstError = nil
            throw e
        }
    }

    /// Sets `view.subviews` to the views of its mounted components in tree order, in one
    /// assignment; counts as moves the views outside the longest run already in order.
    private func putInOrder(_ view: View) {
        let owner: Component? = view.hostingHost != nil ? host.root : view.component
        guard let owner else {
            // A view its component gave up (unmounted, or replaced by one of another class)
            // keeps only what still names it superview: a view is in one `subviews` (break 07).
            view.subviews.removeAll { $0.superview !== view }
            return
        }
        let order = Mounter.viewsInOrder(under: view, from: owner)
        runtime.viewMoves += ViewMoves.count(order)
        for (i, v) in order.enumerated() { v.indexInSuperview = Int32(truncatingIfNeeded: i) }
        view.subviews = order
    }

    /// The views under `view` of `owner`'s mounted subtree, in tree order (the walk stops at
    /// each view). Walks each children list in place, saving the outer one per viewless component entered:
    /// a list of 1,000 keyed rows is read once, not copied reversed onto a stack.
    private static func viewsInOrder(under view: View, from owner: Component) -> [View] {
        var order: [View] = []
        order.reserveCapacity(view.subviews.count)
        var list = owner.view === view ? owner.children : [owner], next = 0
        var outer: [(list: [Component], next: Int)] = []
        while true {
            guard next < list.count else {
                guard let resume = outer.popLast() else { break }
                (list, next) = resume
                continue
            }
            let c = list[next]
            next += 1
            if let v = c.view, c.isMounted {
                if v.isSubview(of: view) { order.append(v) }
            } else if !c.children.isEmpty {
                outer.append((list, next))
                (list, next) = (c.children, 0)
            }
        }
        return order
    }

    private mutating func call(_ k: Controller, _ name: String, _ arguments: [Value] = []) {
        do { try Lifecycle.call(k, name, arguments, in: runtime) } catch { firstError = firstError ?? error }
    }
}
