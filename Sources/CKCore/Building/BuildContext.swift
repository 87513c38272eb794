/// What one build of one host has claimed and made so far; committed only if the build succeeds.
final class BuildContext {
    let host: Host
    let generation: Int
    let id: Int
    var currentScope: Scope
    /// State folded from pending updates, by scope.
    var foldedState: [ObjectIdentifier: Value] = [:]
    /// New child-scope maps of the scopes whose content is rebuilt (a class: mutated in place).
    final class ChildMap {
        let scope: Scope
        var map: [ScopeIdentity: [Scope]] = [:]
        var counts: [ScopeIdentity: Int] = [:]
        init(_ scope: Scope) { self.scope = scope }
    }

    var nextChildren: [ObjectIdentifier: ChildMap] = [:]
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

    func isRebuilding(_ scope: Scope) -> Bool { nextChildren[ObjectIdentifier(scope)] != nil }

    func beginRebuilding(_ scope: Scope) {
        if nextChildren[ObjectIdentifier(scope)] == nil { nextChildren[ObjectIdentifier(scope)] = ChildMap(scope) }
    }

    /// The state a component of `scope` sees in this build.
    func state(of scope: Scope) -> Value { foldedState[ObjectIdentifier(scope)] ?? scope.state }

    func hasPendingUpdate(_ scope: Scope) -> Bool { foldedState[ObjectIdentifier(scope)] != nil }

    /// Finds or makes the child scope of `parent` with this identity; the n-th sibling with
    /// the same identity gets the n-th scope (order-based, reported as a collision).
    func claim(_ identity: ScopeIdentity, in parent: Scope, runtime: Runtime) -> (Scope, isNew: Bool) {
        let ordinal: Int
        let pid = ObjectIdentifier(parent)
        if let entry = nextChildren[pid] {
            ordinal = entry.map[identity]?.count ?? 0
            let scope = existingOrNew(identity, ordinal: ordinal, in: parent)
            var group = entry.map[identity] ?? []
            group.append(scope.0)
            entry.map[identity] = group
            reportCollision(identity, ordinal: ordinal, scope: scope.0, siblings: group, runtime: runtime)
            return scope
        }
        let merged: ChildMap
        if let m = mergedClaims[pid] { merged = m } else { merged = ChildMap(parent); mergedClaims[pid] = merged }
        ordinal = merged.counts[identity] ?? 0
        merged.counts[identity] = ordinal + 1
        let scope = existingOrNew(identity, ordinal: ordinal, in: parent)
        if ordinal > 0, let first = parent.children[identity]?.first {
            reportCollision(identity, ordinal: ordinal, scope: scope.0, siblings: [first, scope.0], runtime: runtime)
        }
        return scope
    }

    private func existingOrNew(_ identity: ScopeIdentity, ordinal: Int, in parent: Scope) -> (Scope, isNew: Bool) {
        if let group = parent.children[identity], ordinal < group.count, group[ordinal].isLive {
            return (group[ordinal], false)
        }
        let scope = Scope(className: identity.className, identifier: identity.identifier, key: identity.key,
                          ordinal: ordinal, parent: parent, host: host)
        newScopes.append(scope)
        return (scope, true)
    }

    private func reportCollision(_ identity: ScopeIdentity, ordinal: Int, scope: Scope, siblings: [Scope], runtime: Runtime) {
        guard ordinal > 0, let first = siblings.first else { return }
        runtime.warn(.scopeCollision, "two sibling scopes have the same class, identifier and key: \(first.path) and \(scope.path); they are told apart by order, which breaks when siblings move. Give each a distinct identifier or key")
    }
}
