import CKCore

/// What the live view's focus remembers of a view across builds: its component's path where
/// every step is told apart from its siblings by the rule the builder pairs children by
/// (`SiblingPlace`: an unkeyed child by its entry of the children list, `false` holes counted;
/// a keyed or scoped one by its label and order among that label), so the focus stays on the
/// component whose view the build kept: a keyed move, an optional sibling appearing before it
/// (`cond and ck.Button{…}`), a state-only build keep it. Asked for one node at a time and
/// found again by walking down from the root, so a build costs the depth times the siblings on
/// the way, never a key for every node (a 60,000-deep tree's keys would be 60,000 paths
/// 60,000 steps long).
struct FocusIdentity: Hashable {
    struct Step: Hashable {
        let label: String
        let place: SiblingPlace
        /// Its entry of its parent's children list when the focus was set (`false` and nil holes
        /// counted, keyed or not): where to look for a neighbour once it is gone, by the rule
        /// that places a child across builds, never its index among the children present (not
        /// part of its identity).
        let entry: Int

        static func == (a: Step, b: Step) -> Bool { a.label == b.label && a.place == b.place }
        func hash(into h: inout Hasher) { h.combine(label); h.combine(place) }
    }

    let steps: [Step]

    /// `component`'s identity: one step per component from the root down to it.
    init(of component: Component) {
        var steps: [Step] = []
        var node: Component? = component
        while let n = node {
            steps.append(Step(label: n.label, place: n.siblingPlace, entry: n.entryInParent))
            node = n.parent
        }
        self.steps = steps.reversed()
    }

    /// The deepest component of the path that `root` still has, and how many steps it took.
    private func deepest(under root: Component?) -> (Component?, Int) {
        guard let root, let first = steps.first, first.label == root.label else { return (nil, 0) }
        var node = root, depth = 1
        for step in steps.dropFirst() {
            guard let child = node.child(labelled: step.label, at: step.place) else { break }
            node = child
            depth += 1
        }
        return (node, depth)
    }

    /// Where the focus goes after a build (docs/tui.md): this component if it is still there and
    /// `takesFocus` accepts it; else, under its deepest ancestor still there, the first view
    /// `takesFocus` accepts in the sibling that now stands at the entry of the children list
    /// where the lost one's branch stood (the next row, when a row left a list; the component's
    /// own branch, when it stayed without a focusable view), else in the nearest before that
    /// entry, else the nearest after it (`Component.childIndices(aroundEntry:)`); none there:
    /// beside that ancestor one level up, after it first. Nil when no ancestor is there.
    func target(under root: Component?, takesFocus: (Component) -> Bool) -> Component? {
        let (found, depth) = deepest(under: root)
        guard var node = found else { return nil }
        var order: [Int]
        if depth < steps.count {
            order = node.childIndices(aroundEntry: steps[depth].entry)
        } else if takesFocus(node) {
            return node
        } else {
            guard let parent = node.parent else { return Self.first(in: node, takesFocus) }
            order = parent.childIndices(aroundEntry: node.entryInParent)
            node = parent
        }
        while true {
            let kids = node.children
            for i in order {
                if let f = Self.first(in: kids[i], takesFocus) { return f }
            }
            guard let up = node.parent, let at = node.indexAmongSiblings else { return nil }
            // Its own branch has no focusable view: look beside it, after it first.
            order = Array((at + 1)..<up.children.count) + Array((0..<at).reversed())
            node = up
        }
    }

    /// The first component at or below `top`, in tree order, that `takesFocus`.
    private static func first(in top: Component, _ takesFocus: (Component) -> Bool) -> Component? {
        var stack = [top]
        while let c = stack.popLast() {
            if takesFocus(c) { return c }
            stack.append(contentsOf: c.children.reversed())
        }
        return nil
    }
}
