import CKCore
import CKLua

/// The formats of the core's tree model (`Host.tree()`): JSON and Graphviz dot, for `ckrun tree`
/// and the library's `Host.json()` / `Host.dot()` (package-visible: the command line uses them).
/// They run in a turn: making the model and showing values may run a script's `__tostring`.
package struct TreeExport {
    let host: CKCore.Host

    package init(host: CKCore.Host) { self.host = host }

    /// Nested objects: class, path, identifier, key, controller, view (its class), viewMounted
    /// (only when false), attributes (what the view shows), actions, state (as JSON), children.
    /// Linear in the tree: indentation stops at `CKCore.Host.dumpIndentLimit` levels as the text dump's
    /// does, and a deeper node's path is its last that many labels after `…/`.
    package func json(in turn: borrowing Turn) throws -> String {
        guard let root = try turn.tree(of: host) else { return "null\n" }
        var out = ""
        enum Step { case open(TreeNode, Int, path: TreePath, last: Bool), close(Int, last: Bool) }
        var steps: [Step] = [.open(root, 0, path: TreePath(root.path), last: true)]
        while let step = steps.popLast() {
            try host.runtime.limits.tick(holding: out.utf8.count)
            switch step {
            case let .open(n, depth, path, last):
                let fields = try fields(n, path: path.text, holding: out.utf8.count, turn)
                out += Self.indent(depth) + "{" + fields.joined(separator: ", ") + ", \"children\": ["
                if n.children.isEmpty {
                    out += "]}" + (last ? "\n" : ",\n")
                    continue
                }
                out += "\n"
                steps.append(.close(depth, last: last))
                // The node's children are its component's: their labels with `[N]`, as a path writes them.
                let labels = n.component.childLabels
                for (i, child) in n.children.enumerated().reversed() {
                    steps.append(.open(child, depth + 1, path: path.appending(i < labels.count ? labels[i] : child.label), last: i == n.children.count - 1))
                }
            case let .close(depth, last):
                out += Self.indent(depth) + "]}" + (last ? "\n" : ",\n")
            }
        }
        return out
    }

    private static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(depth, CKCore.Host.dumpIndentLimit))
    }

    private func fields(_ n: TreeNode, path: String, holding: Int, _ turn: borrowing Turn) throws -> [String] {
        var f = ["\"class\": \(JSON.quote(n.component.name))", "\"path\": \(JSON.quote(path))"]
        var built = holding
        func counted(_ field: String) -> String { built += field.utf8.count; return field }
        // Typed: key 1 is `1`, key "1" is `"1"`.
        if !n.identifier.isNil { f.append(counted("\"identifier\": \(try turn.json(n.identifier, holding: built))")) }
        if !n.key.isNil { f.append(counted("\"key\": \(try turn.json(n.key, holding: built))")) }
        if let k = n.controller { f.append("\"controller\": \(JSON.quote(k))") }
        if let v = n.viewClass {
            let attributes = try n.attributes.map { counted("\(JSON.quote(try turn.jsonName($0.key))): \(try turn.json($0.value, holding: built))") }
            let actions = try n.actions.map { "{\"event\": \(JSON.quote($0.event)), \"action\": \(try $0.action.map { JSON.quote(try turn.describe(Value.object($0))) } ?? "null")}" }
            f.append("\"view\": \(JSON.quote(v))")
            if !n.viewMounted { f.append("\"viewMounted\": false") }
            f.append("\"attributes\": {\(attributes.joined(separator: ", "))}")
            if !actions.isEmpty { f.append("\"actions\": [\(actions.joined(separator: ", "))]") }
        }
        if let s = n.state { f.append("\"state\": \(try turn.json(s, holding: built))") }
        return f
    }

    /// Components (boxes, with what their view shows), controllers (ellipses) and views
    /// (notes); solid edges are the tree, dashed red edges the responder chain from each leaf.
    /// Ticks the limits counting the text built (a 6 MB state was 300 MB of RSS under 40 MB).
    package func dot(in turn: borrowing Turn) throws -> String {
        var graph = DotGraph(limits: host.runtime.limits)
        try graph.add("digraph ckrun {", "  rankdir=TB;", "  node [fontname=\"Helvetica\", fontsize=11];")
        var leaves: [Component] = []
        try turn.tree(of: host)?.walk { n, _ in
            try graph.add(node: n, label: try labelLines(n, turn))
            if n.children.isEmpty { leaves.append(n.component) }
        }
        try graph.add(graph.node(graph.id(host.hostingView, "v"), "shape=note, style=filled, fillcolor=\"#f4f4f4\"", label: ["HostingView"]))
        for r in host.responders { try graph.add(graph.node(graph.id(r, "r"), "shape=hexagon", label: [r.name])) }
        var drawn: Set<String> = []
        // A responder's chain is the same from every leaf that reaches it: each walk stops at the
        // first edge already drawn, so drawing every chain costs one step per edge (not leaves × depth).
        for leaf in leaves {
            var a = Responder.component(leaf)
            while let b = host.runtime.nextResponder(a) {
                let edge = "  \(graph.id(a.object, prefix(a))) -> \(graph.id(b.object, prefix(b))) [color=red, style=dashed, constraint=false];"
                guard drawn.insert(edge).inserted else { break }
                try graph.add(edge)
                a = b
            }
        }
        try graph.add("}")
        return graph.lines.joined(separator: "\n") + "\n"
    }

    /// A component's box label, a line each: its label, what its view shows and its state.
    private func labelLines(_ n: TreeNode, _ turn: borrowing Turn) throws -> [String] {
        var lines = [n.label]
        for a in n.attributes { lines.append("\(a.name): " + (try limited(turn.describe(a.value, shape: .whole)))) }
        if let s = n.state, !s.isNil { lines.append("state: " + (try limited(turn.describe(s, shape: .whole)))) }
        return lines
    }

    /// `DotText.quoted`'s worst case doubles the text: a long one is checked against the memory limit first.
    private func limited(_ text: String) throws -> String {
        if text.utf8.count > 4096 { try host.runtime.limits.check(2 * text.utf8.count) }
        return text
    }

    private func prefix(_ r: Responder) -> String {
        switch r {
        case .component: "c"
        case .controller: "k"
        case .view: "v"
        case .script: "r"
        }
    }

}

/// A node's path in the JSON export: its last `CKCore.Host.dumpIndentLimit` labels, after `…/` when
/// there are more (a full path per node made the output quadratic in depth).
struct TreePath {
    private var labels: [String]
    private var cut = false

    init(_ root: String) { labels = [root] }

    func appending(_ label: String) -> TreePath {
        var p = self
        p.labels.append(label)
        if p.labels.count > CKCore.Host.dumpIndentLimit {
            p.labels.removeFirst()
            p.cut = true
        }
        return p
    }

    var text: String { (cut ? "…/" : "") + labels.joined(separator: "/") }
}

/// The dot export's lines, with the ids of the objects they name, ticking the limits with the
/// bytes written so far.
struct DotGraph {
    let limits: WorkLimits
    private(set) var lines: [String] = []
    private var size = 0
    private let ids = Names()

    init(limits: WorkLimits) { self.limits = limits }

    /// The objects' ids, in a class: a mutating `id` called while building the argument of a
    /// mutating `add` copied the whole table per call (100,000 siblings: quadratic, > 60 s).
    private final class Names {
        var byObject: [ObjectIdentifier: String] = [:]
    }

    func id(_ o: RuntimeObject, _ prefix: String) -> String {
        if let s = ids.byObject[ObjectIdentifier(o)] { return s }
        let s = "\(prefix)\(ids.byObject.count)"
        ids.byObject[ObjectIdentifier(o)] = s
        return s
    }

    mutating func add(_ new: String...) throws {
        var bytes = 0
        for line in new { bytes += line.utf8.count + 1 }
        size += bytes
        try limits.tick(new.count + bytes >> 8, holding: size)  // a unit a line and a 256 bytes
        lines += new
    }

    /// A node's line: every label goes through here, each line escaped (DOT's one escaper).
    func node(_ id: String, _ attributes: String, label lines: [String]) -> String {
        "  \(id) [\(attributes), label=\(DotText.quoted(lines))];"
    }

    /// A component's box, its tree edges, and its controller and view.
    mutating func add(node n: TreeNode, label: [String]) throws {
        let c = n.component
        try add(node(id(c, "c"), "shape=box", label: label))
        for child in n.children { try add("  \(id(c, "c")) -> \(id(child.component, "c"));") }
        if let k = c.controller, k.component === c {
            try add(node(id(k, "k"), "shape=ellipse, style=filled, fillcolor=\"#eef3ff\"", label: [k.controllerClass.name]),
                    "  \(id(c, "c")) -> \(id(k, "k")) [style=dotted, arrowhead=none];")
        }
        if let v = c.view {
            try add(node(id(v, "v"), "shape=note", label: [v.viewClass]),
                    "  \(id(c, "c")) -> \(id(v, "v")) [style=dotted, arrowhead=none, color=gray];")
        }
    }
}
