/// How a component is told apart from its siblings across generations: the rule the builder
/// pairs a child with the previous generation's by (`Builder.counterpart`), for whatever else
/// follows a component from one build to the next (the live view's focus). An unkeyed child
/// without a scope is its entry of the children list, `false` and nil entries counted
/// (`Component.slot`), as React keeps `cond && X` holes; a keyed or scoped one is its label
/// (class, identifier, key) and its order among earlier siblings of that label.
public enum SiblingPlace: Hashable, Sendable {
    /// The entry of the parent's children list (1-based, holes counted).
    case entry(Int)
    /// The n-th (from 0) among the siblings of its label.
    case among(Int)
}

extension Component {
    /// Its place among its parent's children (`SiblingPlace`); the root's is `.among(0)`.
    public var siblingPlace: SiblingPlace {
        guard let parent, let index = indexAmongSiblings else { return .among(0) }
        if !isIdentified { return .entry(parent.slot(ofChildAt: index)) }
        let label = self.label
        return .among(parent.children[..<index].reduce(0) { $0 + ($1.isIdentified && $1.label == label ? 1 : 0) })
    }

    /// The child standing at `place` with `label`, if one does.
    public func child(labelled label: String, at place: SiblingPlace) -> Component? {
        switch place {
        case .entry(let slot):
            guard let i = childIndex(atSlot: slot), !children[i].isIdentified, children[i].label == label else { return nil }
            return children[i]
        case .among(let n):
            var seen = 0
            for c in children where c.isIdentified && c.label == label {
                if seen == n { return c }
                seen += 1
            }
            return nil
        }
    }

    /// Its entry of its parent's children list (1-based, holes counted), keyed or not: where its
    /// branch stood, for what looks for a neighbour once it is gone. The root's is 1.
    public var entryInParent: Int {
        guard let parent, let index = indexAmongSiblings else { return 1 }
        return parent.slot(ofChildAt: index)
    }

    /// The indices in `children` in the order a lost child's neighbour is looked for, by entries
    /// of the children list (never by index: a `false` hole before it moves no sibling): the
    /// child at `entry`, then those before it, nearest first, then those after it, nearest first.
    public func childIndices(aroundEntry entry: Int) -> [Int] {
        let from = firstChildIndex(fromSlot: entry)
        let at = from < children.count && slot(ofChildAt: from) == entry
        let after = at ? from + 1 : from
        return (at ? [from] : []) + Array((0..<from).reversed()) + Array(after..<children.count)
    }

    /// Keyed or scoped: told apart by its label, not by its entry.
    private var isIdentified: Bool { scope != nil || !key.isNil }

    /// Its index among its parent's children, if it stands there.
    public var indexAmongSiblings: Int? {
        guard let parent else { return nil }
        if parent.children.indices.contains(indexInParent), parent.children[indexInParent] === self { return indexInParent }
        return parent.children.firstIndex { $0 === self }
    }
}
