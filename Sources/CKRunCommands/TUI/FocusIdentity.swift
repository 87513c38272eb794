import CKCore

/// What the live view's focus remembers of a view across builds: its component's path where
/// every step also counts its place among the same-labelled children of the same parent (row
/// 3's second Button is `List/Stack/Row#3/Stack/Button(1)`). A keyed move, a sibling inserted
/// before another parent, a state-only build keep it; two same-named siblings (a row's two
/// buttons) differ. Asked for one node at a time and found again by walking down from the
/// root, so a build costs the depth times the siblings on the way, never a key for every node
/// (a 60,000-deep tree's keys would be 60,000 paths 60,000 steps long).
struct FocusIdentity: Hashable {
    struct Step: Hashable {
        let label: String
        let place: Int
    }

    let steps: [Step]

    /// `component`'s identity: one step per component from the root down to it.
    init(of component: Component) {
        var steps: [Step] = []
        var node: Component? = component
        while let n = node {
            steps.append(Step(label: n.label, place: Self.place(of: n)))
            node = n.parent
        }
        self.steps = steps.reversed()
    }

    /// The component with this identity under `root`, if the tree still has one.
    func component(under root: Component?) -> Component? {
        guard let root, let first = steps.first, first == Step(label: root.label, place: 0) else { return nil }
        var node = root
        for step in steps.dropFirst() {
            var seen = 0
            guard let child = node.children.first(where: { c in
                guard c.label == step.label else { return false }
                defer { seen += 1 }
                return seen == step.place
            }) else { return nil }
            node = child
        }
        return node
    }

    /// How many earlier siblings have the same label.
    private static func place(of component: Component) -> Int {
        guard let parent = component.parent else { return 0 }
        let label = component.label
        var place = 0
        for sibling in parent.children {
            if sibling === component { break }
            if sibling.label == label { place += 1 }
        }
        return place
    }
}
