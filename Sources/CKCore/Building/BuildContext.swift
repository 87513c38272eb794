/// What one build of one host has claimed and made so far; committed only if the build succeeds.
final class BuildContext {
    let host: Host
    let generation: Int
    let id: Int
    var currentScope: Scope
    /// Scopes with state folded by this build (`scope.foldedState`).
    var foldedScopes: [Scope] = []
    /// New child-scope maps of the scopes whose content is rebuilt (a class: mutated in place).
    final class ChildMap {
        let scope: Scope
        var map: [ScopeIdentity: [Scope]] = [:]
        var counts: [ScopeIdentity: Int] = [:]
        init(_ scope: Scope) { self.scope = scope }
    }

    /// The scopes whose content is rebuilt, with the child scopes this build claimed in each
    /// (also reachable as `scope.rebuiltChildren` while the build runs).
    var rebuilt: [ChildMap] = []
    /// Claims in scopes that are not rebuilt: merged into their maps on commit.
    var mergedClaims: [ObjectIdentifier: ChildMap] = [:]
    var newScopes: [Scope] = []
    /// Components rendered by this build, parents first.
    var rendered: [Component] = []
    /// Previous instances kept (pure reuse), with their old tree links for a rollback.
    var kept: [(component: Component, parent: Component?, index: Int)] = []

    init(host: Host, generation: Int, id: Int) {
        self.host = host
        self.generation = generation
        self.id = id
        currentScope = host.rootScope
    }

    func isRebuilding(_ scope: Scope) -> Bool { scope.rebuiltChildren != nil }

    func beginRebuilding(_ scope: Scope) {
        guard scope.rebuiltChildren == nil else { return }
        let entry = ChildMap(scope)
        entry.map.reserveCapacity(scope.children.count)
        scope.rebuiltChildren = entry
        rebuilt.append(entry)
    }

    /// Ends the build: the scopes forget their rebuilt maps and folded state (committed or not).
    func finish() {
        for entry in rebuilt { entry.scope.rebuiltChildren = nil }
        for scope in foldedScopes { scope.foldedState = nil }
    }

    func fold(_ state: Value, into scope: Scope) {
        if scope.foldedInBuild != id { foldedScopes.append(scope) }
        scope.foldedState = state
        scope.foldedInBuild = id
    }

    /// Places `scope` among the rebuilt children of its parent `entry`, if not there yet.
    func place(_ scope: Scope, in entry: ChildMap) {
        guard scope.claimedInBuild != id else { return }
        scope.claimedInBuild = id
        entry.map[scope.identity, default: []].append(scope)
    }

    /// The state a component of `scope` sees in this build.
    func state(of scope: Scope) -> Value { folded(scope) ?? scope.state }

    /// What this build folded for `scope`, if anything.
    func folded(_ scope: Scope) -> Value? { scope.foldedInBuild == id ? scope.foldedState : nil }

    func hasPendingUpdate(_ scope: Scope) -> Bool { scope.foldedInBuild == id }

    /// Finds or makes the child scope of `parent` with this identity; the n-th sibling with
    /// the same identity gets the n-th scope (order-based, reported as a collision).
    func claim(_ identity: ScopeIdentity, in parent: Scope, runtime: Runtime) -> (Scope, isNew: Bool) {
        if let entry = parent.rebuiltChildren {
            // One lookup finds the siblings claimed so far and appends the claimed scope.
            let (claimed, siblings) = appending(to: &entry.map[identity, default: []]) { group in
                existingOrNew(identity, ordinal: group.count, in: parent)
            }
            claimed.0.claimedInBuild = id
            reportCollision(identity, ordinal: siblings.count - 1, scope: claimed.0, siblings: siblings, runtime: runtime)
            return claimed
        }
        let pid = ObjectIdentifier(parent)
        let merged: ChildMap
        if let m = mergedClaims[pid] { merged = m } else { merged = ChildMap(parent); mergedClaims[pid] = merged }
        let ordinal = merged.counts[identity] ?? 0
        merged.counts[identity] = ordinal + 1
        let scope = existingOrNew(identity, ordinal: ordinal, in: parent)
        if ordinal > 0, let first = parent.children[identity]?.first {
            reportCollision(identity, ordinal: ordinal, scope: scope.0, siblings: [first, scope.0], runtime: runtime)
        }
        return scope
    }

    /// Makes the next scope of `group` and appends it, in one access to the map's entry.
    private func appending(to group: inout [Scope], _ make: ([Scope]) -> (Scope, isNew: Bool))
        -> ((Scope, isNew: Bool), [Scope]) {
        let made = make(group)
        group.append(made.0)
        return (made, group)
    }

    private func existingOrNew(_ identity: ScopeIdentity, ordinal: Int, in parent: Scope) -> (Scope, isNew: Bool) {
        if let group = parent.children[identity], ordinal < group.count, group[ordinal].isLive {
            return (group[ordinal], false)
        }
        let scope = Scope(identity: identity, ordinal: ordinal, parent: parent, host: host)
        newScopes.append(scope)
        return (scope, true)
    }

    private func reportCollision(_ identity: ScopeIdentity, ordinal: Int, scope: Scope, siblings: [Scope], runtime: Runtime) {
        guard ordinal > 0, let first = siblings.first else { return }
        runtime.warn(.scopeCollision, "two sibling scopes have the same class, identifier and key: \(first.path) and \(scope.path); they are told apart by order, which breaks when siblings move. Give each a distinct identifier or key")
    }
}
