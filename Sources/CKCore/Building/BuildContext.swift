/// What one build of one host has claimed and made so far; committed only if the build succeeds.
final class BuildContext {
    let host: Host
    /// `host.link`, which every component built gets: read through the host, it cost a retain
    /// and a release of the host (one with a side table: ~120 instructions a component).
    let hostLink: HostLink
    let generation: Int
    let id: Int32
    var currentScope: Scope
    /// State folded by this build for scopes with updates: a scope stamped with this build's
    /// id finds its state at `scope.foldedSlot` (a map here cost +4.7% per update; docs/internals.md).
    private var foldedStates: [Value] = []
    /// How many scopes of each identity a build claimed in a scope it does not rebuild.
    final class MergedClaims {
        let scope: Scope
        var counts: [ScopeIdentity: Int] = [:]
        init(_ scope: Scope) { self.scope = scope }
    }

    /// The scopes whose content is rebuilt and that had children or claimed one (see
    /// `beginRebuilding`); the child scopes this build claims in each are `scope.rebuiltChildren`.
    var rebuilt: [Scope] = []
    /// Claims in scopes that are not rebuilt: merged into their maps on commit.
    var mergedClaims: [ObjectIdentifier: MergedClaims] = [:]
    var newScopes: [Scope] = []
    /// Components rendered by this build, parents first.
    var rendered: [Component] = []
    /// Instances of earlier builds this build replaced by a fresh one (`Builder.adopt`): each may
    /// stand in one place only.
    var standsIn: Set<ObjectIdentifier> = []
    /// A previous instance kept (pure reuse), with its old tree links for a rollback. A struct:
    /// an array of tuples was destroyed through generic value witnesses (~65 instructions a row).
    /// `returned`: a render returned it again (`Builder.adopt`), so it leaves its old parent only
    /// if that goes (`Builder.checkLeftBehind` reads these; a list of their own, of tuples, cost
    /// ~110 instructions a kept row).
    struct Kept {
        let component: Component
        let parent: Component?
        let index: Int
        let returned: Bool
        init(_ component: Component, returned: Bool = false) {
            self.component = component
            parent = component.parent
            index = component.indexInParent
            self.returned = returned
        }
    }
    var kept: [Kept] = []
    /// How many of `kept` a render returned again with a parent (see `Kept.returned`).
    var returnedKept = 0
    /// How many scopes `place` has placed aside so far.
    private var placedAside = 0
    /// Scopes placed aside and not brought back yet: while none is, a claim does not look through
    /// its identity's old group for them (issue 28: N colliding siblings looked N times each).
    private var waitingAside = 0
    /// Whether this build has warned that its tree is deep (`TreeDepth`).
    var warnedDeep = false
    /// What the build is running, for `[buildFailed]`; described only if the build fails (a
    /// path per render would cost the build its speed).
    enum Running {
        case provider
        case render(Component)
        case view(Component)
        case shouldUpdate(Component)
        case updateFunction(Scope)
        /// A new scope's `initialState` function.
        case initialState(Scope)

        /// Who makes what is constructed while this runs (`Component.madeBy`): a state function
        /// by its scope and the line that constructed it (the render's own line is its class's).
        @inline(__always)
        func maker(_ runtime: Runtime) -> Component.Maker {
            switch self {
            case .provider: .provider
            case .render(let c), .view(let c), .shouldUpdate(let c): .render(c.componentClass)
            case .updateFunction, .initialState: .site(MakerSite(code: description, location: runtime.currentLocation()))
            }
        }

        var description: String {
            switch self {
            case .provider: "the host's provider"
            case .render(let c) where c.componentClass.renderDefinition == nil: "the build of the built-in \(c.shownPath)"
            case .render(let c): "the render of \(c.shownPath)"
            case .view(let c): "\(c.componentClass.hasViewFunction ? "the view function" : "the view") of \(c.shownPath)"
            case .shouldUpdate(let c): "the shouldUpdate of \(c.shownPath)"
            case .updateFunction(let s): "an update function queued for \(s.shownPath)"
            case .initialState(let s): "the initialState of \(s.shownPath)"
            }
        }
    }
    var running: Running = .provider

    /// Instances built before this generation predate a class definition (`mayKeep`).
    let keepableFrom: Int

    init(host: Host, generation: Int, id: Int32) {
        self.host = host
        hostLink = host.link
        self.generation = generation
        self.id = id
        currentScope = host.rootScope
        let definitions = host.runtime.definitionsVersion
        if host.definitionsSeen != definitions {
            host.definitionsSeen = definitions
            host.keepableFrom = generation
        }
        // A reload renders everything again (CK's testReload_ComponentIsNotReused): what it
        // shows may depend on more than props (atk-ck4 break 01).
        if host.isReloading { host.keepableFrom = generation }
        keepableFrom = host.keepableFrom
    }

    /// THE RULE for keeping an instance a build already has (a pure component's previous
    /// instance, the one `Class(props)` hands back, one a render returns again): kept only if a
    /// fresh build would make the same: it is in this host's current tree (so its links, views
    /// and controllers are this host's), not yet placed by this build, of the very class asked
    /// for, built after the last class or controller definition (a redefined class, a
    /// `Class.view = f`, a controller defined later), and no update is pending on its scope or
    /// below it (`walkedInBuild`: stamped on the ancestors of every dirty component, see
    /// `Builder.markDirtyPaths`). Props are the caller's to compare. Every path that keeps asks
    /// this; a C fast path must mirror it field for field.
    @inline(__always)
    func mayKeep(_ old: Component, as cls: ComponentClass) -> Bool {
        old.rendered && old.isInTree && old.hostLink === hostLink && old.placedInBuild != id && old.componentClass === cls
            && old.generation >= keepableFrom && old.walkedInBuild != id
            && old.scope.map { $0.foldedInBuild != id } ?? true
    }

    func isRebuilding(_ scope: Scope) -> Bool { scope.rebuiltInBuild == id }

    /// A scope is listed in `rebuilt` once it has something to commit: old children (which
    /// leave unless claimed again) or a first claim. A leaf scope, the common case, has neither.
    func beginRebuilding(_ scope: Scope) {
        guard scope.rebuiltInBuild != id else { return }
        scope.rebuiltInBuild = id
        scope.rebuiltChildren = nil
        if !scope.children.isEmpty { rebuilt.append(scope) }
    }

    /// Ends the build: the scopes forget their rebuilt maps, the folded state goes (committed or not).
    func finish() {
        for scope in rebuilt { scope.rebuiltChildren = nil }
        foldedStates = []
    }

    func fold(_ state: Value, into scope: Scope) {
        if scope.foldedInBuild == id {
            foldedStates[Int(scope.foldedSlot)] = state
            return
        }
        scope.foldedSlot = Int32(truncatingIfNeeded: foldedStates.count)
        scope.foldedInBuild = id
        foldedStates.append(state)
    }

    /// A new scope's initial state is its state at once: no one sees the scope before the
    /// commit, and a failed build drops the scope with it.
    func setInitial(_ state: Value, of scope: Scope) {
        scope.state = state
    }

    /// Claims a kept `scope` in its parent, if that is rebuilt and the scope is not claimed yet.
    /// It stays placed aside in the parent's old map (every live scope is in its parent's map):
    /// the commit keeps that map whole when every scope in it was placed aside, else carries
    /// these over; a claim of the same identity first brings them back (`bringBack`).
    func place(_ scope: Scope) {
        guard let parent = scope.parent, isRebuilding(parent), scope.claimedInBuild != id else { return }
        scope.claimedInBuild = id
        scope.placedAside = true
        placedAside += 1
        waitingAside += 1
    }

    /// Whether the commit carries `scope` over from its parent's old map.
    func isPlacedAside(_ scope: Scope) -> Bool { scope.claimedInBuild == id && scope.placedAside }

    /// The scopes of `old` (a group of the parent's old map) placed aside so far join the rebuilt
    /// map, in claim order before the claim that comes next, as `place` once put them there.
    private func bringBack(_ old: ScopeSiblings, into parent: Scope) {
        guard waitingAside > 0 else { return }
        for scope in old where isPlacedAside(scope) {
            waitingAside -= 1
            scope.placedAside = false
            parent.rebuiltChildren!.insert(scope)
        }
    }

    /// Gives a rebuilt scope its map of claimed children at the first claim, sized like the old one.
    /// Sized like the old one less the scopes placed aside so far (in any parent: a row changed
    /// among 1,000 kept ones made a map of 2,048 slots for one scope, then freed it).
    private func makeRebuiltChildren(of parent: Scope) {
        guard parent.rebuiltChildren == nil else { return }
        parent.rebuiltChildren = ScopeMap(minimumCapacity: max(0, parent.children.count - placedAside))
        if parent.children.isEmpty { rebuilt.append(parent) }   // else listed when it began
    }

    /// The state a component of `scope` sees in this build.
    func state(of scope: Scope) -> Value { folded(scope) ?? scope.state }

    /// What this build folded for `scope`, if anything.
    func folded(_ scope: Scope) -> Value? { scope.foldedInBuild == id ? foldedStates[Int(scope.foldedSlot)] : nil }

    func hasPendingUpdate(_ scope: Scope) -> Bool { scope.foldedInBuild == id }

    /// Finds or makes the child scope of `parent` with this identity; the n-th sibling with
    /// the same identity gets the n-th scope (order-based, reported as a collision).
    func claim(_ identity: ScopeIdentity, in parent: Scope, runtime: Runtime) -> (Scope, isNew: Bool) {
        if isRebuilding(parent) {
            makeRebuiltChildren(of: parent)
            let old = parent.children[identity]
            if let old { bringBack(old, into: parent) }
            // One lookup finds the siblings claimed so far and appends the claimed scope.
            let (claimed, ordinal, first) = parent.rebuiltChildren!.modifyGroup(identity) { group in
                appending(to: &group) { existingOrNew(identity, old, ordinal: $0, in: parent) }
            }
            claimed.0.claimedInBuild = id
            claimed.0.placedAside = false
            reportCollision(ordinal: ordinal, scope: claimed.0, first: first, runtime: runtime)
            return claimed
        }
        let pid = ObjectIdentifier(parent)
        let merged: MergedClaims
        if let m = mergedClaims[pid] { merged = m } else { merged = MergedClaims(parent); mergedClaims[pid] = merged }
        let ordinal = merged.counts[identity] ?? 0
        merged.counts[identity] = ordinal + 1
        let scope = existingOrNew(identity, parent.children[identity], ordinal: ordinal, in: parent)
        if ordinal > 0, let first = parent.children[identity]?.first {
            reportCollision(ordinal: ordinal, scope: scope.0, first: first, runtime: runtime)
        }
        return scope
    }

    /// Makes the next scope of `group` (given its ordinal) and appends it, in one access to the
    /// map's entry; returns it with its ordinal and the group's first scope.
    private func appending(to group: inout ScopeSiblings, _ make: (Int) -> (Scope, isNew: Bool))
        -> ((Scope, isNew: Bool), Int, Scope) {
        let ordinal = group.count
        let made = make(ordinal)
        group.append(made.0)
        return (made, ordinal, group[0])
    }

    /// The `ordinal`-th scope of `group` (the identity's in the parent's old map), else a new one.
    /// Not one this build claimed already: a kept pure subtree placed it (its row moved up among
    /// colliding siblings, atk-ck4 break 02), and a scope is held by one instance.
    private func existingOrNew(_ identity: ScopeIdentity, _ group: ScopeSiblings?, ordinal: Int,
                               in parent: Scope) -> (Scope, isNew: Bool) {
        if let group, ordinal < group.count, group[ordinal].isLive, group[ordinal].claimedInBuild != id {
            return (group[ordinal], false)
        }
        let scope = Scope(identity: identity, ordinal: ordinal, parent: parent, host: host)
        newScopes.append(scope)
        return (scope, true)
    }

    /// Reports the `ordinal`-th scope of an identity (from 0), claimed after `first`.
    private func reportCollision(ordinal: Int, scope: Scope, first: Scope?, runtime: Runtime) {
        guard ordinal > 0, let first else { return }
        runtime.warnHere(.scopeCollision, "two sibling scopes have the same class, identifier and key: \(first.shownPath) and \(scope.shownPath); they are told apart by order, which breaks when siblings move. Give each a distinct identifier or key")
    }
}
