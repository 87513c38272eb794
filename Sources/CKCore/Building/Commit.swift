/// Makes a successful build the current generation: state, scopes, tree, controllers,
/// then mounting (if the host is mounted) and invalidation of the scopes that left.
struct Commit {
    let host: Host
    let context: BuildContext
    let folded: [Scope]
    let runtime: Runtime

    init(host: Host, context: BuildContext, folded: [Scope]) {
        self.host = host
        self.context = context
        self.folded = folded
        runtime = host.runtime
    }

    func apply(fullBuild: Bool, newRoot: Component?, replacements: [(old: Component, new: Component)]) throws {
        commitState()
        let removed = commitScopes()
        let oldRoot = host.root
        commitTree(fullBuild: fullBuild, newRoot: newRoot, replacements: replacements)
        var firstError: Error?
        func keep(_ body: () throws -> Void) { do { try body() } catch { firstError = firstError ?? error } }
        let created = attachControllers()
        for scope in removed { scope.isLive = false }
        for k in created {
            keep {
                try Lifecycle.call(k, "init", [.object(k.component)], in: runtime)
                try Lifecycle.call(k, "didInit", in: runtime)
            }
        }
        if host.isMounted {
            keep { try mount(fullBuild: fullBuild, newRoot: newRoot, oldRoot: oldRoot, replacements: replacements) }
        }
        markTreeMembership(oldTops: fullBuild ? oldRoot.map { [$0] } ?? [] : replacements.map(\.old))
        for c in context.rendered {
            c.previous = nil
            c.isInTree = true
        }
        if !removed.isEmpty {
            let tops = fullBuild ? oldRoot.map { [$0] } ?? [] : replacements.map(\.old)
            keep { try invalidate(removed, below: tops) }
        }
        if let firstError { throw firstError }
    }

    /// Invalidation: once, after unmounting, for every scope that left the tree, in the order
    /// of their components in the previous tree below `tops`, what this build replaced (only
    /// those with a controller call back, so only they are put in order; a kept subtree holds
    /// none); then the scopes retire. Raises the first callback error.
    private func invalidate(_ removed: [Scope], below tops: [Component]) throws {
        var firstError: Error?
        func keep(_ body: () throws -> Void) { do { try body() } catch { firstError = firstError ?? error } }
        let id = context.id
        for scope in Scope.controllersInTreeOrder(removed, below: tops, skip: { $0.placedInBuild == id }) {
            if let k = scope.controller { Lifecycle.invalidate(k, keep: keep) }
        }
        for scope in removed { scope.retire() }
        if let firstError { throw firstError }
    }

    /// What the build folded is now the state; the queues it folded are empty.
    private func commitState() {
        for scope in folded {
            scope.dropPendingUpdates(runtime.limits)
        }
        // Nothing queues an update during a build: what is dirty is what was folded, now empty.
        host.dirtyScopes.removeAll { $0.pendingUpdates.isEmpty }
        for scope in folded {
            if let state = context.folded(scope) { scope.state = state }
        }
    }

    /// Rebuilt maps replace the old ones; an old map holding scopes placed aside (kept rows) is
    /// patched instead: the groups claimed anew put in, the scopes that left taken out (a parent
    /// re-rendering only kept rows leaves it as it is). Returns the scopes that left the tree.
    private func commitScopes() -> [Scope] {
        var removed: [Scope] = []
        for rebuilt in context.rebuilt {
            let before = removed.count
            var aside = false
            for group in rebuilt.children.groups {
                for scope in group {
                    if scope.claimedInBuild != context.id {
                        // A leaf (a row) is its own subtree: no array made for it.
                        if scope.children.isEmpty { removed.append(scope) } else { removed.append(contentsOf: scope.subtree) }
                    } else if scope.placedAside {
                        aside = true
                    }
                }
            }
            if aside {
                patch(rebuilt, anyLeft: removed.count > before)
            } else {
                rebuilt.children = rebuilt.rebuiltChildren ?? ScopeMap()
            }
        }
        for (_, entry) in context.mergedClaims {
            for scope in context.newScopes where scope.parent === entry.scope {
                entry.scope.children.append(scope)
            }
        }
        return removed
    }

    /// `rebuilt`'s old map, which holds scopes placed aside, made its new one: each group claimed
    /// anew replaces its identity's (with the scopes placed aside there after it), then the
    /// groups no claim replaced lose the scopes that left (`anyLeft`).
    private func patch(_ rebuilt: Scope, anyLeft: Bool) {
        let id = context.id
        if let claimed = rebuilt.rebuiltChildren {
            rebuilt.rebuiltChildren = nil
            for group in claimed.groups {
                rebuilt.children.replaceGroup(with: group) { $0.claimedInBuild == id && $0.placedAside }
            }
        }
        guard anyLeft else { return }
        var lost: [Scope] = []                  // one scope of each group that lost one
        for group in rebuilt.children.groups where group.contains(where: { $0.claimedInBuild != id }) {
            lost.append(group[0])
        }
        for scope in lost { rebuilt.children.filterGroup(of: scope) { $0.claimedInBuild == id } }
    }

    private func commitTree(fullBuild: Bool, newRoot: Component?, replacements: [(old: Component, new: Component)]) {
        if fullBuild {
            host.root = newRoot
        } else {
            for (old, new) in replacements {
                if let p = old.parent {
                    p.children[old.indexInParent] = new
                } else {
                    host.root = new
                }
            }
        }
        host.generation = context.generation
    }

    /// The latest component of each rendered scope; a controller class redefined under the same
    /// name (a reload) takes over its live controllers. Returns the controllers created.
    private func attachControllers() -> [Controller] {
        var created: [Controller] = []
        for component in context.rendered {
            guard let scope = component.scope else { continue }
            scope.component = component
            let cls = try? runtime.controllerClass(for: component.componentClass)
            if let k = scope.controller {
                k.component = component
                if let cls, cls !== k.controllerClass, cls.name == k.controllerClass.name { k.controllerClass = cls }
            } else if let cls {
                let k = Controller(controllerClass: cls, scope: scope, component: component)
                scope.controller = k
                created.append(k)
            }
        }
        return created
    }

    /// What the replaced components had below them leaves the tree, except what this build
    /// placed again; a kept instance that comes back (passed down in props) brings its subtree.
    /// What this build rendered is marked by the caller; what left is listed (`Runtime.leftTree`).
    private func markTreeMembership(oldTops: [Component]) {
        var stack = oldTops
        // The leaves that left holding a handle: most builds have one (the leaf a state update
        // re-rendered), kept apart from the array so that it allocates nothing.
        var endedLeaf: Component?, endedLeaves: [Component] = []
        while let c = stack.popLast() {
            guard c.isInTree, c.placedInBuild != context.id else { continue }
            c.isInTree = false
            if !c.children.isEmpty {
                runtime.leftTree.append(c)
                stack.append(contentsOf: c.children)
            } else if !c.propsLiveOn {      // a leaf a state update re-rendered holds nothing more
                runtime.leftTree.append(c)
            } else if c.handleIsKept {      // but its handle is kept (SPEC §1)
                if endedLeaf == nil { endedLeaf = c } else { endedLeaves.append(c) }
            }
        }
        defer {
            if let c = endedLeaf, !c.isInTree { runtime.ended(c) }
            for c in endedLeaves where !c.isInTree { runtime.ended(c) }
        }
        var cameBack = false
        for entry in context.kept where !entry.component.isInTree {
            stack = [entry.component]
            cameBack = true
            while let c = stack.popLast() {
                c.isInTree = true
                stack.append(contentsOf: c.children)
            }
        }
        if cameBack { runtime.leftTree.removeAll { $0!.isInTree } }
    }

    /// The new generation first, then what vanished is unmounted.
    private func mount(fullBuild: Bool, newRoot: Component?, oldRoot: Component?,
                       replacements: [(old: Component, new: Component)]) throws {
        var mounter = Mounter(host: host)
        if fullBuild {
            if let newRoot { mounter.mount(newRoot, previous: oldRoot, in: host.hostingView) }
            if let oldRoot { mounter.unmountVanished(oldRoot, context: context) }
        } else {
            for (old, new) in replacements {
                mounter.mount(new, previous: old, in: superview(of: new, replacing: old))
            }
            for (old, _) in replacements { mounter.unmountVanished(old, context: context) }
        }
        try mounter.finish()
    }

    /// The view a component's views go into: where the views of the subtree it replaces are (a
    /// walk of that subtree, which is unmounted anyway); if it had none and the new one has none
    /// either, no view is placed and any will do; else its nearest ancestor's view. The walk up
    /// is paid only by a subtree that gains its first view: a leaf whose render returns nil under
    /// 100,000 composites walked them all each update (atk-cliff 03).
    private func superview(of component: Component, replacing old: Component) -> View {
        if let s = Commit.placedSuperview(under: old) { return s }
        if !Commit.hasViews(component) { return host.hostingView }
        var p = component.parent
        while let a = p {
            if let v = a.view { return v }
            p = a.parent
        }
        return host.hostingView
    }

    /// The superview of a top view placed in `top`'s subtree (all of them share it).
    private static func placedSuperview(under top: Component) -> View? {
        if let v = top.view { return v.component === top ? v.superview : nil }
        if top.children.isEmpty { return nil }
        var stack = top.children
        while let c = stack.popLast() {
            if let v = c.view {
                if v.component === c, let s = v.superview { return s }
                continue
            }
            stack.append(contentsOf: c.children)
        }
        return nil
    }

    private static func hasViews(_ top: Component) -> Bool {
        if top.viewSpec != nil { return true }
        if top.children.isEmpty { return false }
        var stack = top.children
        while let c = stack.popLast() {
            if c.viewSpec != nil { return true }
            stack.append(contentsOf: c.children)
        }
        return false
    }
}
