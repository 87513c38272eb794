/// A component's path (`List/Stack/Row#1`), which stays the one it had in its last tree after
/// its old ancestors are freed: a freed component leaves `Remains` in its link.
extension Component {
    /// `Root/List/Item#3/Button[2]`: the path of labels from the root, each with `[N]` when an
    /// earlier sibling has its label, as it was in the tree this instance was last placed in, also
    /// once its ancestors there are freed. The one way a component's path is written (`c.path`,
    /// messages, the live view): a query that finds it (atk-apps3 01: a message's path without
    /// `[N]` found the first sibling, or nothing).
    public var path: String {
        var names: [String] = []
        var step: PathStep? = .live(self)
        while let s = step {
            names.append(Self.placedLabel(s))
            step = s.up
        }
        return names.reversed().joined(separator: "/")
    }

    /// `path` as messages show it: at most ten names at any depth (`ScopeName.shownPath`).
    public var shownPath: String {
        ScopeName.shownPath(from: PathStep.live(self), parent: { $0.up }, label: Self.placedLabel)
    }

    /// A step's label, with `[N]` when an earlier sibling of its parent has that label: the
    /// query position that finds it.
    static func placedLabel(_ step: PathStep) -> String {
        // Only among the siblings it stands with: a replaced instance is not among its old
        // parent's children any more (its successor is), and has no [N] (atk-stale 01).
        guard case .live(let c) = step, let p = c.parent, p.children.count > 1,
              let at = c.indexAmongSiblings else { return step.label }
        return p.childLabel(at: at)
    }

    /// The label of the child at `index`, with `[2]` when an earlier child has the same label.
    public func childLabel(at index: Int) -> String {
        let child = children[index]
        let same = children[..<index].reduce(0) { $0 + ($1.printsAlike(child) ? 1 : 0) }
        return same == 0 ? child.label : child.label + "[\(same + 1)]"
    }

    /// Whether `other` has this component's `label`, told without making the labels when the
    /// names, identifiers and keys say (`c.path` in a 50,000-row list compares every earlier row).
    func printsAlike(_ other: Component) -> Bool {
        guard name == other.name else { return false }
        switch (Self.samePart(scope?.identifier ?? .nil, other.scope?.identifier ?? .nil), Self.samePart(key, other.key)) {
        case (false, _), (_, false): return false
        case (true, true): return true
        default: return label == other.label
        }
    }

    /// Whether two values print as the same name part (`ScopeName.part`); nil: only their text says
    /// (tables all print `<table>`, long strings are cut, floats print as their text).
    private static func samePart(_ a: Value, _ b: Value) -> Bool? {
        switch (a, b) {
        case (.nil, .nil): return true
        case (.nil, _), (_, .nil): return false
        case let (.int(x), .int(y)): return x == y
        case (.int, .string), (.string, .int): return false   // a string that reads as a number is quoted
        case let (.string(x), .string(y)):
            if x.utf8.elementsEqual(y.utf8) { return true }   // bytes: == reads é and e + U+0301 alike
            return x.utf8.count < Excerpt.limit && y.utf8.count < Excerpt.limit ? false : nil
        default: return nil
        }
    }

    /// Every child's `childLabel`, in one pass (a tree export names each node).
    public var childLabels: [String] {
        var seen: [String: Int] = [:]
        return children.map { c in
            let label = c.label, n = (seen[label] ?? 0) + 1
            seen[label] = n
            return n == 1 ? label : label + "[\(n)]"
        }
    }

    /// What a freed component leaves in its link for the instances that still name it as their
    /// parent (a stale child a script holds): its label and its own parent, so their `path` stays
    /// the one they had (attack atk-mem 02: `Row#1` after a collection, `List/Stack/View/Row#1` before).
    final class Remains {
        let label: String
        var parentLink: BackLink<Component>?
        init(of c: Component) {
            label = c.label
            parentLink = c.parentLink
        }

        /// A chain of remains (a deep tree's stale leaf) goes one link at a time, not by recursion.
        deinit {
            var next = parentLink
            parentLink = nil
            while var link = next {
                next = nil
                guard isKnownUniquelyReferenced(&link), var remains = link.remains.map({ unsafeDowncast($0, to: Remains.self) }) else { break }
                link.remains = nil
                guard isKnownUniquelyReferenced(&remains) else { break }
                next = remains.parentLink
                remains.parentLink = nil
            }
        }
    }

    /// One name of a path: a live component, or what a freed one left behind.
    enum PathStep {
        case live(Component)
        case freed(Remains)

        var label: String {
            switch self {
            case .live(let c): c.label
            case .freed(let r): r.label
            }
        }

        var up: PathStep? {
            let link: BackLink<Component>?
            switch self {
            case .live(let c): link = c.parentLink
            case .freed(let r): link = r.parentLink
            }
            guard let link else { return nil }
            if let t = link.target { return .live(t) }
            return (link.remains as? Remains).map(PathStep.freed)
        }
    }
}
