import CKCore

/// What the live view's focus remembers of a view across builds: its component's path where
/// every step also counts its place among the same-labelled children of the same parent
/// (`List/Stack/Row#3/Stack/Button.1`, the second Button of row 3's stack). A keyed move, a
/// sibling inserted before another parent, a state-only build keep it; two same-named siblings
/// (a row's two buttons) differ. Made once per build, in time linear in the tree.
struct FocusIdentity {
    private var known: [ObjectIdentifier: String] = [:]
    private var places: [ObjectIdentifier: Int] = [:]

    /// `component`'s identity (the components asked about must stay alive while this lives).
    mutating func of(_ component: Component) -> String {
        var unnamed: [Component] = []
        var node: Component? = component
        while let n = node, known[ObjectIdentifier(n)] == nil {
            unnamed.append(n)
            node = n.parent
        }
        var path = node.flatMap { known[ObjectIdentifier($0)] } ?? ""
        for n in unnamed.reversed() {
            path = (path.isEmpty ? "" : path + "/") + step(n)
            known[ObjectIdentifier(n)] = path
        }
        return path
    }

    /// `Button`, or `Button.2` for the third Button among its parent's children.
    private mutating func step(_ component: Component) -> String {
        let label = component.label
        guard let parent = component.parent else { return label }
        if places[ObjectIdentifier(component)] == nil { count(parent.children) }
        let place = places[ObjectIdentifier(component)] ?? 0
        return place == 0 ? label : "\(label).\(place)"
    }

    /// Each child's place among its same-labelled siblings, in one pass.
    private mutating func count(_ siblings: [Component]) {
        var seen: [String: Int] = [:]
        for s in siblings {
            let label = s.label
            places[ObjectIdentifier(s)] = seen[label, default: 0]
            seen[label, default: 0] += 1
        }
    }
}
