/// Builds one generation of a host: a full build re-runs the provider; a state-update build
/// re-renders only the components whose scopes changed, and their descendants. Iterative,
/// so trees of any depth build without deep Swift recursion.
struct Builder {
    let host: Host
    /// Held for the build: `host.runtime` is unowned, and each read of it costs a check.
    let runtime: Runtime

    init(host: Host) {
        self.host = host
        runtime = host.runtime
    }

    func run(full: Bool) throws {
        guard !host.isBusy else {
            // A lifecycle callback asked for a build while this host is in a pass.
            host.buildAfterPass(full: full)
            return
        }
        defer { if !runtime.leftTree.isEmpty { runtime.handOverLeftTree() } }
        try runtime.changingTree { try host.pass { try buildGeneration(full: full) } }
    }

    private func buildGeneration(full: Bool) throws {
        // Build ids are marks compared for equality (0: never); they wrap after 2^32 builds.
        runtime.lastBuildID &+= 1
        if runtime.lastBuildID == 0 { runtime.lastBuildID = 1 }
        let context = BuildContext(host: host, generation: host.generation + 1, id: runtime.lastBuildID)
        let saved = runtime.build
        runtime.build = context
        defer {
            context.finish()
            runtime.build = saved
        }
        let dirty = host.dirtyScopes
        var replacements: [(old: Component, new: Component)] = []
        var newRoot: Component?
        do {
            try fold(dirty, into: context)
            if full || host.needsFullBuild {
                markDirtyPaths(dirty, context: context)
                newRoot = try renderFromProvider(context)
            } else { replacements = try rerenderDirty(dirty, context: context) }
            if context.returnedKept > 0 {
                try checkLeftBehind(context, full: full || host.needsFullBuild, replacements: replacements)
            }
        } catch {
            rollBack(context)
            throw failed(error, context: context, dirty: dirty, full: full)
        }
        let fullBuild = full || host.needsFullBuild
        host.needsFullBuild = false
        try Commit(host: host, context: context, folded: dirty).apply(
            fullBuild: fullBuild, newRoot: newRoot, replacements: replacements)
    }

    /// A full build: the provider's element for the host's model, rendered as the new root.
    private func renderFromProvider(_ context: BuildContext) throws -> Component? {
        context.running = .provider
        context.beginRebuilding(host.rootScope)
        context.currentScope = host.rootScope
        runtime.renderDepth += 1
        let given: Component?
        do { given = try host.provider(host.model) } catch { runtime.renderDepth -= 1; throw error }
        runtime.renderDepth -= 1
        guard let given else { return nil }
        let made = try adopt(given, previous: host.root, place: nil, context: context)
        made.parent = nil
        made.indexInParent = 0
        return try renderSubtree(made, context: context)
    }

    /// What a render (or the provider) returned, made ready to be placed; `previous`: the
    /// previous generation's instance at that place. An instance built by an earlier build
    /// stays if `mayKeep` says so (its old links are noted for a rollback, before they change);
    /// else it stands for a construction: a fresh instance of its class, props and key (its
    /// scope's current state) takes its place, as if the render had called `Class(props)`.
    /// `place`: the parent and index it is given at (nil: the root).
    private func adopt(_ child: Component, previous: Component?, place: (parent: Component, index: Int)?,
                       context: BuildContext) throws -> Component {
        guard child.rendered else {
            child.previous = previous
            return child
        }
        if context.mayKeep(child, as: child.componentClass) {
            context.kept.append(BuildContext.Kept(child, returned: true))
            if child.parent != nil { context.returnedKept += 1 }
            return child
        }
        // Not `placedInBuild`: that would tell the commit and the mounter it stays in the tree.
        guard context.standsIn.insert(ObjectIdentifier(child)).inserted else {
            throw placedTwice(child, returnedBy: place?.parent, at: place?.index, context: context)
        }
        let fresh = Component(componentClass: child.componentClass, props: child.props,
                              key: child.key, generation: context.generation)
        fresh.enclosingScope = child.enclosingScope
        fresh.madeBy = child.madeBy
        fresh.hostLink = host.link
        if let scope = child.scope {
            guard scope.isLive, scope.hostLink === context.hostLink else { throw leftScope(child, returnedBy: place?.parent, context: context) }
            fresh.scope = scope
            fresh.state = context.state(of: scope)
            context.place(scope)
            fresh.previous = scope.component
        } else {
            fresh.previous = previous
        }
        if child.childrenGiven { fresh.giveChildren(child.children, slots: child.childSlots) }
        return fresh
    }

    /// A state-update build: each topmost dirty component replaced by a fresh one of the same
    /// class, props and key, with its scope's folded state, and rendered again.
    private func rerenderDirty(_ dirty: [Scope], context: BuildContext) throws -> [(old: Component, new: Component)] {
        var replacements: [(old: Component, new: Component)] = []
        for component in topmostDirtyComponents(dirty, context: context) {
            let fresh = Component(componentClass: component.componentClass, props: component.props,
                                  key: component.key, generation: context.generation)
            fresh.scope = component.scope
            fresh.state = context.state(of: component.scope!)
            fresh.enclosingScope = component.enclosingScope
            fresh.madeBy = component.madeBy
            fresh.hostLink = host.link
            fresh.previous = component
            fresh.parent = component.parent
            fresh.indexInParent = component.indexInParent
            replacements.append((component, fresh))
            try renderSubtree(fresh, context: context)
        }
        return replacements
    }

    /// Folds each dirty scope's queued updates over its state, without committing.
    private func fold(_ dirty: [Scope], into context: BuildContext) throws {
        runtime.renderDepth += 1
        defer { runtime.renderDepth -= 1 }
        for scope in dirty where scope.isLive {
            var state = scope.state
            context.running = .updateFunction(scope)
            for queued in scope.pendingUpdates {
                switch queued.update {
                case .value(let v): state = v
                case .transform(let f): state = try f(state)
                }
            }
            context.fold(state, into: scope)
        }
    }

    /// The dirty scopes' components in the tree that have no dirty ancestor (a scope is listed
    /// once: `enqueue` adds it at its first pending update). A scope is dirty in this build when
    /// `fold` stamped it, and a component knows whether it is in the tree (`isInTree`): one
    /// dirty scope costs no walk; N cost O(N + the paths above them).
    private func topmostDirtyComponents(_ dirty: [Scope], context: BuildContext) -> [Component] {
        var out: [Component] = []
        let several = dirty.count > 1
        for scope in dirty where scope.isLive {
            guard let c = scope.component, c.isInTree else { continue }
            if several && hasDirtyAncestor(c, context.id) { continue }
            out.append(c)
        }
        return out
    }

    /// Whether a proper ancestor of `c` has a dirty scope. The walk stops at a component an
    /// earlier walk of this build passed, and a second walk stamps its path with the answer, so
    /// the walks of one build pass each component about once.
    private func hasDirtyAncestor(_ c: Component, _ id: Int32) -> Bool {
        var answer = false
        var stop = c.parent
        while let a = stop {
            if a.walkedInBuild == id { answer = a.dirtyAtOrAbove; break }
            if a.scope?.foldedInBuild == id {
                answer = true
                a.walkedInBuild = id
                a.dirtyAtOrAbove = true
                break
            }
            stop = a.parent
        }
        var node = c.parent
        while let a = node, a !== stop {
            a.walkedInBuild = id
            a.dirtyAtOrAbove = answer
            node = a.parent
        }
        return answer
    }

    /// A full build re-renders from the root: the ancestors of each dirty component are stamped
    /// (`walkedInBuild`), so that `mayKeep` keeps no subtree with an update pending inside.
    /// (A state build stamps them in `topmostDirtyComponents`.)
    private func markDirtyPaths(_ dirty: [Scope], context: BuildContext) {
        for scope in dirty where scope.isLive {
            if let c = scope.component, c.isInTree { _ = hasDirtyAncestor(c, context.id) }
        }
    }

    /// Renders `top` and everything below it that is not kept, depth-first in child order.
    /// Returns what stands at the top afterwards (the previous instance, if it was kept).
    @discardableResult
    private func renderSubtree(_ top: Component, context: BuildContext) throws -> Component {
        var result = top
        var stack: [(node: Component, depth: Int)] = [(top, 1)]
        let watched = TreeDepth.watched(from: runtime)
        while let (node, depth) = stack.popLast() {
            if depth >= watched { try TreeDepth.check(depth, of: node, context: context, runtime) }
            try checkPlacement(node, context: context)
            // An instance rendered by an earlier build passed `adopt`'s `mayKeep`: kept as it is.
            let kept = node.rendered ? node : try keepIfPure(node, context: context)
            if let kept {
                if kept !== node {
                    context.kept.append(BuildContext.Kept(kept))
                    if let p = node.parent { p.children[node.indexInParent] = kept }
                    kept.parent = node.parent
                    kept.indexInParent = node.indexInParent
                }
                kept.placedInBuild = context.id
                if kept === node { try carryScopeClaims(of: kept, context: context) }
                if node === top { result = kept }
                continue
            }
            node.placedInBuild = context.id
            try render(node, context: context)
            let oldParent = node.previous, old = oldParent?.children ?? []
            var missedKey = false
            for i in node.children.indices.reversed() {
                let given = node.children[i]
                try checkGivenOnce(given, by: node, at: i, context: context)
                let child = try adopt(given, previous: given.rendered && given.scope != nil ? nil
                                      : counterpart(of: given, at: node.slot(ofChildAt: i), in: oldParent, missedKey: &missedKey),
                                      place: (node, i), context: context)
                if child !== given { node.children[i] = child }
                child.parent = node
                child.indexInParent = i
                stack.append((child, depth + 1))
            }
            if missedKey { linkKeyed(node, to: old) }
        }
        return result
    }

    /// `KeyedSiblings.link` for `node`'s children, the list's entry indices asked once for all
    /// its duplicate keys (issue 28: a walk of the list per duplicate was quadratic).
    private func linkKeyed(_ node: Component, to old: [Component]) {
        var entries: [ObjectIdentifier: Int]??
        KeyedSiblings.link(node.children, to: old) { duplicateKey($0, $1, in: node, entries: &entries) }
    }

    /// A child `node` gives at `index` that was placed already in this build: itself, an
    /// ancestor (built again: nested without end), or one given twice in this one list (its
    /// second place is the one named, `Stack/P[2]` for `{p, p, p}` too, though the list is
    /// walked from its end).
    @inline(__always)
    private func checkGivenOnce(_ given: Component, by node: Component, at index: Int, context: BuildContext) throws {
        if given.placedInBuild == context.id { throw placedTwice(given, returnedBy: node, at: index, context: context) }
        if given.parent === node, given.indexInParent > index, node.children[given.indexInParent] === given {
            let places = node.children.indices.lazy.filter { node.children[$0] === given }
            throw placedTwice(given, returnedBy: node, at: places.dropFirst().first ?? given.indexInParent, context: context)
        }
    }

    /// `[duplicateKey]` for two unscoped siblings of one class and key (React warns for any
    /// keyed children), at the render that gave them (the parent's own, or the one that made it).
    /// The siblings by the entries of the list the script wrote when the parent is a built-in
    /// given one (`false` entries count), and the line of the code that made that list: the
    /// parent's render, or the code that constructed the parent (attack atk-mem 11: no file:line
    /// for a provider's Stack, and "children 1 and 3" for entries 1 and 4).
    /// `entries`: the children's entry indices, asked once for all the parent's duplicates.
    private func duplicateKey(_ child: Component, _ first: Component, in parent: Component, entries: inout [ObjectIdentifier: Int]??) {
        let maker: Component.Maker = parent.componentClass.renderDefinition != nil ? .render(parent.componentClass) : parent.madeBy
        let at = maker.definition(in: host) ?? runtime.currentLocation()
        let which: String
        if parent.childrenGiven, entries == nil { entries = .some(runtime.childEntryIndices?(parent)) }
        if parent.childrenGiven, let indices = entries ?? nil,
           let a = indices[ObjectIdentifier(first)], let b = indices[ObjectIdentifier(child)] {
            which = "entries \(a) and \(b) of the children list of \(parent.shownPath) (made in \(maker.description))"
        } else {
            which = "children \(first.indexInParent + 1) and \(child.indexInParent + 1) of \(parent.shownPath)"
        }
        runtime.onWarning(Catalogue.duplicateKey.message("two siblings have the same class and key: \(first.label), \(which); their views are told apart by order, which breaks when they move. Give each a distinct key", at: at))
    }

    /// Runs the view function and the render of one component.
    private func render(_ node: Component, context: BuildContext) throws {
        let cls = node.componentClass
        // Made outside a build, in another host's or in an earlier one that did not place it: from
        // now on this host's, of this generation (`mayKeep`).
        if node.hostLink !== context.hostLink { node.hostLink = context.hostLink }
        if node.generation != context.generation { node.joinFirstBuild(context.generation) }
        if let scope = node.scope {
            context.beginRebuilding(scope)
        }
        context.currentScope = node.scope ?? node.enclosingScope ?? host.rootScope
        runtime.renderDepth += 1
        defer { runtime.renderDepth -= 1 }
        if let view = cls.view {
            context.running = .view(node)
            node.viewSpec = try view(node)
            if let spec = node.viewSpec { try checkControls(spec, in: node) }
        }
        context.running = .render(node)
        if let children = cls.children {
            if !node.childrenGiven { let list = try children(node); node.setChildren(list.components, slots: list.slots) }
        } else if let render = cls.render {
            node.setChildren(try render(node).map { [$0] } ?? [], slots: nil)
        }
        node.rendered = true
        context.rendered.append(node)
    }

    /// `[notAControl]` at the place that gave the spec: the class's view function or view table,
    /// else (a built-in's view, from its props) the code that constructed the component.
    private func checkControls(_ spec: ViewSpec, in node: Component) throws {
        for attribute in spec.actions where attribute.kind.traits.needsControl && !runtime.controls.contains(spec.viewClass) {
            let at = node.componentClass.viewDefinition ?? node.madeBy.definition(in: host) ?? runtime.currentLocation()
            throw RuntimeError(.notAControl, "ck.\(attribute.kind.traits.function) on \(Article.with(Excerpt.text(spec.viewClass))) in \(node.shownPath): \(Excerpt.text(spec.viewClass)) is not a control; use ck.onTap, or ck.registerControlClass(\"\(Excerpt.text(spec.viewClass))\")",
                               at: at)
        }
    }

    /// The previous generation's instance at this place: by scope, else by the entry of the
    /// children list (`Component.slot`), class and key (a keyed child elsewhere is matched by
    /// `KeyedSiblings.link`).
    private func counterpart(of child: Component, at slot: Int, in oldParent: Component?, missedKey: inout Bool) -> Component? {
        if let scope = child.scope { return scope.component === child ? nil : scope.component }
        return KeyedSiblings.atSlot(child, slot, in: oldParent, missed: &missedKey)
    }

    /// A pure component keeps its previous instance when `mayKeep` allows and its props are
    /// unchanged (`shouldUpdate`, by default shallow-equal with actions compared by `==`).
    private func keepIfPure(_ node: Component, context: BuildContext) throws -> Component? {
        guard node.componentClass.isPure, !node.propsChanged, let old = node.previous, old !== node,
              context.mayKeep(old, as: node.componentClass) else { return nil }
        runtime.renderDepth += 1
        defer { runtime.renderDepth -= 1 }
        let changed: Bool
        if let shouldUpdate = node.componentClass.shouldUpdate {
            context.running = .shouldUpdate(node)
            changed = try shouldUpdate(old, node)
        } else {
            changed = !runtime.shallowEqual(old.props, node.props)
        }
        guard !changed, !scopesTaken(below: old, context: context) else { return nil }
        try carryScopeClaims(of: old, context: context)
        return old
    }

    /// Whether a component this build placed already holds a scope below an unscoped `kept`
    /// (a topmost scoped one's; a scoped one's own is its new instance's): colliding unscoped children are told
    /// apart by order, so a row rendered earlier in the build (one inserted above) may have
    /// claimed the kept row's old scope. The row is then rendered, claiming by order as it
    /// would without `pure` (atk-ck4 break 02: keeping it failed the build as placed twice).
    private func scopesTaken(below kept: Component, context: BuildContext) -> Bool {
        if kept.scope != nil { return false }   // its scope is the new instance's, claimed by identity
        var stack: [Component] = kept.children
        while let c = stack.popLast() {
            if let scope = c.scope {
                if scope.placedInBuild == context.id { return true }
                continue
            }
            stack.append(contentsOf: c.children)
        }
        return false
    }

    /// A kept subtree's scopes stay claimed in the scopes being rebuilt (and placed: the
    /// topmost scoped components below an unscoped kept one are checked as `checkPlacement` does).
    private func carryScopeClaims(of kept: Component, context: BuildContext) throws {
        if let scope = kept.scope { context.place(scope); return }   // a scoped leaf: no stack
        var stack: [Component] = [kept]
        while let c = stack.popLast() {
            if let scope = c.scope {
                if scope.placedInBuild == context.id { throw placedTwice(c, context: context) }
                scope.placedInBuild = context.id
                context.place(scope)
                continue
            }
            stack.append(contentsOf: c.children)
        }
    }

    /// THE placement check, which every component taking a place in this build's tree passes
    /// (rendered or kept, at the top of a build or below a render; below a kept one the
    /// topmost scoped components pass `carryScopeClaims`' half of it): an instance takes one
    /// place, and a scope, this host's and in its tree (or new), is held by one of them. Two
    /// renders returning one instance made two components of one scope (outsider break 15);
    /// another host's instance shared that host's scope (break 10).
    @inline(__always)
    private func checkPlacement(_ node: Component, context: BuildContext) throws {
        if node.placedInBuild == context.id { throw placedTwice(node, context: context) }
        guard let scope = node.scope else { return }
        guard scope.hostLink === context.hostLink, scope.isLive else { throw leftScope(node, context: context) }
        if scope.placedInBuild == context.id { throw placedTwice(node, context: context) }
        scope.placedInBuild = context.id
    }

    /// An instance a render returned again and kept moves from where it was only if that place
    /// goes: a parent this build neither rendered again nor dropped (outside a state build's
    /// re-rendered components, or inside a kept subtree) keeps it as a child, and the instance
    /// would be in two places. Known only once the whole build is rendered.
    private func checkLeftBehind(_ context: BuildContext, full: Bool,
                                 replacements: [(old: Component, new: Component)]) throws {
        let replaced = full ? [] : Set(replacements.map { ObjectIdentifier($0.old) })
        // A list's rows share their old parent: its answer is asked once, not once a row.
        var lastParent: Component?, lastStays = false
        for entry in context.kept where entry.returned {
            guard let parent = entry.parent else { continue }
            let component = entry.component
            if parent !== lastParent {
                lastParent = parent
                lastStays = stays(parent, context: context, full: full, replaced: replaced)
            }
            if lastStays { throw placedTwice(component, context: context) }
        }
    }

    /// Whether `parent` keeps its children after this build: it or an ancestor is kept whole.
    private func stays(_ parent: Component, context: BuildContext, full: Bool, replaced: Set<ObjectIdentifier>) -> Bool {
        var node: Component? = parent
        while let n = node {
            if n.placedInBuild == context.id { return true }   // kept whole
            if replaced.contains(ObjectIdentifier(n)) { return false }
            node = n.parent
        }
        return !full
    }

    /// `[badReturn]` for an instance returned again after its scope left the tree, or placed in
    /// a host other than the one whose build made its scope.
    private func leftScope(_ node: Component, returnedBy parent: Component? = nil, context: BuildContext) -> RuntimeError {
        let holder = parent ?? node.parent
        context.running = Self.returner(of: holder)
        // The render that placed it (a built-in parent has none), else the code that made it.
        let at = holder?.componentClass.renderDefinition ?? node.madeBy.definition(in: host)
        if let scope = node.scope, scope.hostLink !== host.link {
            return RuntimeError(.badReturn, "\(node.shownPath) belongs to another host: its scope was made by that host's build, and a scope lives in one host; build a new instance in this host's provider or render (call \(node.shownName){…})", at: at)
        }
        return RuntimeError(.badReturn, "\(node.shownPath) was built in generation \(node.generation) and returned again after its scope left the tree; build a new instance (call \(node.shownName){…})", at: at)
    }

    /// `[badReturn]` for an instance met a second time, at the render that returned it there
    /// (`returnedBy`: the component whose children hold it again, at `index`, when it is not yet
    /// its parent there), with where the instance was made.
    private func placedTwice(_ node: Component, returnedBy parent: Component? = nil, at index: Int? = nil,
                             context: BuildContext) -> RuntimeError {
        let holder = parent ?? node.parent
        let owner = holder.flatMap { $0.componentClass.renderDefinition != nil ? $0 : $0.madeInRenderOf }
        // The build failed in what returned it, not in whatever ran last (a sibling's render).
        context.running = Self.returner(of: holder)
        let by = owner.map { ", in what the render of \($0.shownName) returned" } ?? ", in what the host's provider returned"
        let path: String
        if let parent, let index { path = parent.shownPath + "/" + parent.childLabel(at: index) }
        else if let parent { path = parent.shownPath + "/" + node.label }
        else { path = node.shownPath }
        let madeAt = node.madeBy.definition(in: host).map { " at \($0)" } ?? ""
        return RuntimeError(.badReturn, "\(node.shownName) was placed in the tree twice (again at \(path)\(by)); it was made in \(node.madeBy.description)\(madeAt); build a new instance for each place (call \(node.shownName){…} once per place)",
                            at: owner?.componentClass.renderDefinition ?? (owner == nil ? host.providerDefinition : nil))
    }

    /// What ran the code that returned the children of `holder`: its render, or the host's
    /// provider (a built-in's children are returned by the render that made the built-in).
    private static func returner(of holder: Component?) -> BuildContext.Running {
        let owner = holder.flatMap { $0.componentClass.renderDefinition != nil ? $0 : $0.madeInRenderOf }
        return owner.map { .render($0) } ?? .provider
    }

    /// A build that raised (SPEC §3): the updates it was folding are dropped (as if never
    /// sent), a full build's model is put back by the caller, and the error becomes
    /// `[buildFailed]`, followed by the render's own message and traceback. A host's first
    /// build is a build too: nothing is rolled back, and `ck.host` makes no host.
    private func failed(_ error: Error, context: BuildContext, dirty: [Scope], full: Bool) -> Error {
        let dropped = dirty.filter { !$0.pendingUpdates.isEmpty }
        for scope in dropped { scope.dropPendingUpdates(runtime.limits) }
        // Nothing queues an update during a build: the dirty list is still `dirty`, all now empty.
        host.dirtyScopes.removeAll { $0.pendingUpdates.isEmpty }
        host.needsFullBuild = false
        guard !ScriptErrors.passesThrough(error) else { return ScriptErrors.namingYield(error, in: context.running.description) }
        let detail = failureDetail(context, dropped: dropped, full: full)
        switch error {
        case let e as ScriptFailure: return BuildFailure(detail: detail, cause: e.message, traceback: Tracebacks.first(e.traceback))
        case let e as RuntimeError: return BuildFailure(detail: detail, cause: e.description, traceback: "")
        default: return BuildFailure(detail: detail, cause: "\(error)", traceback: "")
        }
    }

    /// `[buildFailed]`'s first line after the id: which build, what raised, what was dropped.
    private func failureDetail(_ context: BuildContext, dropped: [Scope], full: Bool) -> String {
        let raised = context.running.description
        guard host.generation > 0 else {
            return "the first build of a host (generation 1) raised in \(raised); nothing was built or mounted and no host was made. Fix the error below, then build again"
        }
        // A host made but never mounted keeps its generation without having shown it.
        let kept = "generation \(host.generation) \(host.isMounted ? "stays mounted" : "is kept (the host is not mounted)")"
        let scopes = dropped.isEmpty ? "no state updates were pending"
            : "the state updates of \(dropped.prefix(5).map(\.shownPath).joined(separator: ", "))\(dropped.count > 5 ? " and \(dropped.count - 5) more" : "") were dropped"
        if host.isReloading {
            return "reloading (building generation \(context.generation); the previous provider, responders and model are kept) raised in \(raised); the reload was rolled back: \(kept) and \(scopes). Fix the error below, then reload again"
        }
        let what = full ? "host:update (the previous model is kept)" : "a state update"
        return "building generation \(context.generation) for \(what) raised in \(raised); the build was rolled back: \(kept) and \(scopes). Fix the error below, then update again"
    }

    /// Undoes the tree links a failed build changed; state and pending updates were never touched.
    private func rollBack(_ context: BuildContext) {
        for entry in context.kept.reversed() {
            entry.component.parent = entry.parent
            entry.component.indexInParent = entry.index
            entry.component.placedInBuild = 0
        }
        for scope in context.newScopes { scope.isLive = false }
    }
}

extension Runtime {
    /// Default `shouldUpdate` for pure components: props shallow-equal.
    func shallowEqual(_ a: Value, _ b: Value) -> Bool {
        guard case .table(let x) = a, case .table(let y) = b else { return a.rawEquals(b) }
        return x.identity == y.identity || tableComparer?.shallowEqual(x, y) == true
    }
}

/// Optional script-side support: compares two tables field by field with raw equality.
public protocol ScriptTableComparing: ScriptTables {
    func shallowEqual(_ a: ScriptRef, _ b: ScriptRef) -> Bool
}
