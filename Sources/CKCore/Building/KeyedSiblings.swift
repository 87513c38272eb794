/// Matches a rebuilt component's unscoped children to the previous generation's siblings by
/// key identity (class name and `key`, compared as `rawequal` does, as scopes are), so a
/// keyed sibling without a scope keeps its view, and its subtree's, when siblings move
/// (SPEC §5). Unkeyed children match by their entry of the children list, holes counted
/// (`Component.slot`), and class.
enum KeyedSiblings {
    /// The previous instance at entry `slot` of `oldParent`'s list if it is the same unscoped
    /// class with the same key. `missed`: set when a keyed child's old place holds another: then
    /// `link` matches them all.
    static func atSlot(_ child: Component, _ slot: Int, in oldParent: Component?, missed: inout Bool) -> Component? {
        if let oldParent, let index = oldParent.childIndex(atSlot: slot) {
            let o = oldParent.children[index]
            if o.scope == nil, o.componentClass.name == child.componentClass.name, o.key.rawEquals(child.key) { return o }
        }
        if !child.key.isNil { missed = true }
        return nil
    }

    /// Links every unscoped keyed child to the old sibling of its identity: the n-th child of an
    /// identity to the n-th old sibling of it (duplicate keys pair up in order, never twice).
    /// Calls `duplicate` with each child whose identity an earlier sibling has, and that sibling.
    static func link(_ children: [Component], to old: [Component], duplicate: (Component, Component) -> Void) {
        var byIdentity: [ScopeIdentity: [Component]] = [:]
        for o in old.reversed() where o.scope == nil && !o.key.isNil {
            byIdentity[identity(of: o), default: []].append(o)
        }
        var seen: [ScopeIdentity: Component] = [:]
        for child in children where child.scope == nil && !child.key.isNil {
            let id = identity(of: child)
            if let first = seen.updateValue(seen[id] ?? child, forKey: id), first !== child { duplicate(child, first) }
            if !child.rendered { child.previous = byIdentity[id]?.popLast() }
        }
    }

    private static func identity(of c: Component) -> ScopeIdentity {
        ScopeIdentity(className: c.componentClass.name, classNameHash: c.componentClass.nameHash, identifier: .nil, key: c.key)
    }
}
