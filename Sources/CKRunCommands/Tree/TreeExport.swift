import CKCore
import CKLua

/// The command line's formats of the core's tree model (`Host.tree()`): JSON and Graphviz dot.
/// They run in a turn: making the model and showing values may run a script's `__tostring`.
struct TreeExport {
    let host: Host

    /// Nested objects: class, path, identifier, key, controller, view (its class), viewMounted
    /// (only when false), attributes (what the view shows), actions, state (as JSON), children.
    func json(in turn: borrowing Turn) throws -> String {
        guard let root = try turn.tree(of: host) else { return "null\n" }
        var out = ""
        // Paths are made from the parent's as the walk goes down (a path per node from the
        // root would be quadratic in depth).
        enum Step { case open(TreeNode, Int, path: String, last: Bool), close(Int, last: Bool) }
        var steps: [Step] = [.open(root, 0, path: root.path, last: true)]
        while let step = steps.popLast() {
            switch step {
            case let .open(n, depth, path, last):
                try host.runtime.limits.tick(holding: out.utf8.count)
                out += String(repeating: "  ", count: min(depth, Host.dumpIndentLimit)) + "{" + fields(n, path: path, turn).joined(separator: ", ") + ", \"children\": ["
                if n.children.isEmpty {
                    out += "]}" + (last ? "\n" : ",\n")
                    continue
                }
                out += "\n"
                steps.append(.close(depth, last: last))
                for (i, child) in n.children.enumerated().reversed() {
                    steps.append(.open(child, depth + 1, path: path + "/" + child.label, last: i == n.children.count - 1))
                }
            case let .close(depth, last):
                out += String(repeating: "  ", count: min(depth, Host.dumpIndentLimit)) + "]}" + (last ? "\n" : ",\n")
            }
        }
        return out
    }

    private func fields(_ n: TreeNode, path: String, _ turn: borrowing Turn) -> [String] {
        var f = ["\"class\": \(JSON.quote(n.component.name))", "\"path\": \(JSON.quote(path))"]
        if let id = n.identifier { f.append("\"identifier\": \(JSON.quote(id))") }
        if let k = n.key { f.append("\"key\": \(JSON.quote(k))") }
        if let k = n.controller { f.append("\"controller\": \(JSON.quote(k))") }
        if let v = n.viewClass {
            let attributes = n.attributes.map { "\(JSON.quote($0.name)): \(turn.json($0.value))" }
            let actions = n.actions.map { "{\"event\": \(JSON.quote($0.event)), \"action\": \($0.action.map { JSON.quote(turn.describe(Value.object($0))) } ?? "null")}" }
            f.append("\"view\": \(JSON.quote(v))")
            if !n.viewMounted { f.append("\"viewMounted\": false") }
            f.append("\"attributes\": {\(attributes.joined(separator: ", "))}")
            if !actions.isEmpty { f.append("\"actions\": [\(actions.joined(separator: ", "))]") }
        }
        if let s = n.state { f.append("\"state\": \(turn.json(s))") }
        return f
    }

    /// Components (boxes, with what their view shows), controllers (ellipses) and views
    /// (notes); solid edges are the tree, dashed red edges the responder chain from each leaf.
    func dot(in turn: borrowing Turn) throws -> String {
        let graph = DotGraph()
        graph.lines = ["digraph ckrun {", "  rankdir=TB;", "  node [fontname=\"Helvetica\", fontsize=11];"]
        let leaves = try dotTree(into: graph, turn)
        graph.lines.append("  \(graph.id(host.hostingView, "v")) [shape=note, style=filled, fillcolor=\"#f4f4f4\", label=\"HostingView\"];")
        for r in host.responders { graph.lines.append("  \(graph.id(r, "r")) [shape=hexagon, label=\"\(escape(r.name))\"];") }
        try dotResponderChains(from: leaves, into: graph)
        graph.lines.append("}")
        return graph.lines.joined(separator: "\n") + "\n"
    }

    /// The lines of a dot graph, and the node name given to each object (prefix and a number).
    private final class DotGraph {
        var lines: [String] = []
        private var ids: [ObjectIdentifier: String] = [:]

        func id(_ o: RuntimeObject, _ prefix: String) -> String {
            if let s = ids[ObjectIdentifier(o)] { return s }
            let s = "\(prefix)\(ids.count)"
            ids[ObjectIdentifier(o)] = s
            return s
        }
    }

    /// The components with their controllers and views, and the tree's edges; returns the leaves.
    private func dotTree(into graph: DotGraph, _ turn: borrowing Turn) throws -> [Component] {
        var leaves: [Component] = []
        try turn.tree(of: host)?.walk { n, _ in
            try host.runtime.limits.tick()
            let c = n.component
            var label = n.label
            for a in n.attributes { label += "\\n\(a.name): " + escape(turn.describe(a.value)) }
            if let s = n.state, !s.isNil { label += "\\nstate: " + escape(turn.describe(s)) }
            graph.lines.append("  \(graph.id(c, "c")) [shape=box, label=\"\(label)\"];")
            for child in n.children { graph.lines.append("  \(graph.id(c, "c")) -> \(graph.id(child.component, "c"));") }
            if let k = c.controller, k.component === c {
                graph.lines.append("  \(graph.id(k, "k")) [shape=ellipse, style=filled, fillcolor=\"#eef3ff\", label=\"\(k.controllerClass.name)\"];")
                graph.lines.append("  \(graph.id(c, "c")) -> \(graph.id(k, "k")) [style=dotted, arrowhead=none];")
            }
            if let v = c.view {
                graph.lines.append("  \(graph.id(v, "v")) [shape=note, label=\"\(v.viewClass)\"];")
                graph.lines.append("  \(graph.id(c, "c")) -> \(graph.id(v, "v")) [style=dotted, arrowhead=none, color=gray];")
            }
            if n.children.isEmpty { leaves.append(c) }
        }
        return leaves
    }

    /// A responder's chain is the same from every leaf that reaches it: each walk stops at the
    /// first edge already drawn, so drawing every chain costs one step per edge (not leaves × depth).
    private func dotResponderChains(from leaves: [Component], into graph: DotGraph) throws {
        var drawn: Set<String> = []
        for leaf in leaves {
            var a = Responder.component(leaf)
            while let b = host.runtime.nextResponder(a) {
                try host.runtime.limits.tick()
                let edge = "  \(graph.id(a.object, prefix(a))) -> \(graph.id(b.object, prefix(b))) [color=red, style=dashed, constraint=false];"
                guard drawn.insert(edge).inserted else { break }
                graph.lines.append(edge)
                a = b
            }
        }
    }

    private func prefix(_ r: Responder) -> String {
        switch r {
        case .component: "c"
        case .controller: "k"
        case .view: "v"
        case .script: "r"
        }
    }

    /// A quoted dot label: quotes and backslashes escaped, a newline as dot's `\n`, and other
    /// control characters (a NUL ends dot's parse) shown as `\xHH` text.
    private func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\\\x" + (hex.count < 2 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
