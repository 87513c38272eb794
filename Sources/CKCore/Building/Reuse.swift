/// A scope claimed for `Class(props)` before its instance exists (see `reusableInstance`).
public struct ScopeClaim {
    let scope: Scope
    let isNew: Bool
    /// The scope's instance was compared and its props differ: the new one renders.
    var propsChanged = false
}

extension Runtime {
    /// Whether `reusableInstance` could find anything to keep: a build is running and the scope
    /// it claims in had child scopes before it (a first build, or a parent's first children, has
    /// none: their construction then pays nothing for the reuse).
    public var mayReuseInstances: Bool { build.map { !$0.currentScope.children.isEmpty } ?? false }

    /// `Class(props)` of a pure scoped class under a re-rendering parent: when its scope's
    /// instance would be kept anyway (`BuildContext.mayKeep`, and props shallow-equal by
    /// `propsEqual`, which sees the old props), that instance is the result, and no new one is
    /// made only to be compared and dropped (a parent re-rendering 1,000 unchanged rows made
    /// 1,000 components, props references and handles). Only for the default compare: a
    /// `shouldUpdate` runs where the build reaches the instance. Otherwise returns the claim,
    /// for `construct`, saying whether the props were compared unequal (then the build's
    /// `keepIfPure` does not compare the same pair again). Nil claim: the class cannot be reused
    /// this way (construct claims).
    public func reusableInstance(of cls: ComponentClass, key: Value, identifier computed: Value?,
                                 propsEqual: (Value) -> Bool) -> (kept: Component?, claim: ScopeClaim?) {
        let comparedUnequal = propsDifferFrom
        propsDifferFrom = nil
        guard cls.isPure, cls.shouldUpdate == nil, cls.declaresScope, let build else { return (nil, nil) }
        if computed == nil, case .computed = cls.scope { return (nil, nil) }
        let identity = ScopeIdentity(className: cls.name, classNameHash: cls.nameHash, identifier: computed ?? .nil, key: key)
        let (scope, isNew) = build.claim(identity, in: build.currentScope, runtime: self)
        var claim = ScopeClaim(scope: scope, isNew: isNew)
        guard !isNew, let old = scope.component, build.mayKeep(old, as: cls) else { return (nil, claim) }
        guard old !== comparedUnequal && propsEqual(old.props) else {
            claim.propsChanged = true
            return (nil, claim)
        }
        return (old, claim)
    }
}

extension Runtime {
    /// `Class(props)` of a pure class with an anonymous scope, answered from `old`, the instance
    /// the bridge last made or kept for the class and a key (`isKey` tells it): true when
    /// `reusableInstance` would have returned it, and then its scope is claimed as that claim
    /// would have (the first of its identity in the rendering scope, unclaimed in this build: no
    /// collision, no lookup). False: nothing is claimed; the caller constructs, and
    /// `reusableInstance` decides (told when only the props differed, it does not compare again).
    public func keepRecorded(_ old: Component, of cls: ComponentClass, isKey: (Value) -> Bool,
                             propsEqual: (Value) -> Bool) -> Bool {
        guard cls.isPure, cls.shouldUpdate == nil, case .anonymous = cls.scope, let build,
              let scope = old.scope, scope.component === old, scope.isLive, scope.ordinal == 0,
              scope.parent === build.currentScope, build.isRebuilding(build.currentScope),
              scope.claimedInBuild != build.id, scope.identifier.isNil, isKey(scope.key),
              build.mayKeep(old, as: cls) else { return false }   // mayKeep: the very class, so its name
        guard propsEqual(old.props) else {
            propsDifferFrom = old
            return false
        }
        build.place(scope)
        return true
    }
}
