/// The mounted tree as JSON or Graphviz dot, for `ckrun tree`.
extension Host {
    /// Nested objects: class, path, identifier, key, controller, view, state, children.
    /// Indentation stops at `dumpIndentLimit` levels; limits are ticked per component.
    public func json(describe: (Value) -> String) throws -> String {
        guard let root else { return "null\n" }
        var out = ""
        enum Step { case open(Component, Int, last: Bool), close(Int, last: Bool) }
        var steps: [Step] = [.open(root, 0, last: true)]
        while let step = steps.popLast() {
            switch step {
            case let .open(c, depth, last):
                try runtime.limits.tick(holding: out.utf8.count)
                var fields: [String] = ["\"class\": \(quote(c.name))", "\"path\": \(quote(c.path))"]
                if let id = c.scope?.displayIdentifier { fields.append("\"identifier\": \(quote(id))") }
                if let k = Scope.display(c.key) { fields.append("\"key\": \(quote(k))") }
                if let k = c.controller { fields.append("\"controller\": \(quote(k.controllerClass.name))") }
                if let v = c.view { fields.append("\"view\": \(quote(v.viewClass))") }
                if c.scope != nil { fields.append("\"state\": \(quote(describe(c.state)))") }
                out += String(repeating: "  ", count: min(depth, Host.dumpIndentLimit)) + "{" + fields.joined(separator: ", ") + ", \"children\": ["
                if c.children.isEmpty {
                    out += "]}" + (last ? "\n" : ",\n")
                    continue
                }
                out += "\n"
                steps.append(.close(depth, last: last))
                for (i, child) in c.children.enumerated().reversed() {
                    steps.append(.open(child, depth + 1, last: i == c.children.count - 1))
                }
            case let .close(depth, last):
                out += String(repeating: "  ", count: min(depth, Host.dumpIndentLimit)) + "]}" + (last ? "\n" : ",\n")
            }
        }
        return out
    }

    /// Components (boxes), controllers (ellipses) and views (notes); solid edges are the tree,
    /// dashed red edges the responder chain from each leaf.
    public func dot(describe: (Value) -> String) throws -> String {
        var lines = ["digraph ckrun {", "  rankdir=TB;", "  node [fontname=\"Helvetica\", fontsize=11];"]
        var ids: [ObjectIdentifier: String] = [:]
        func id(_ o: RuntimeObject, _ prefix: String) -> String {
            if let s = ids[ObjectIdentifier(o)] { return s }
            let s = "\(prefix)\(ids.count)"
            ids[ObjectIdentifier(o)] = s
            return s
        }
        let all = allComponents()
        for c in all {
            try runtime.limits.tick()
            var label = c.label
            if c.scope != nil, !c.state.isNil { label += "\\nstate: " + describe(c.state).replacingQuotes() }
            lines.append("  \(id(c, "c")) [shape=box, label=\"\(label)\"];")
            for child in c.children { lines.append("  \(id(c, "c")) -> \(id(child, "c"));") }
            if let k = c.controller, k.component === c {
                lines.append("  \(id(k, "k")) [shape=ellipse, style=filled, fillcolor=\"#eef3ff\", label=\"\(k.controllerClass.name)\"];")
                lines.append("  \(id(c, "c")) -> \(id(k, "k")) [style=dotted, arrowhead=none];")
            }
            if let v = c.view {
                lines.append("  \(id(v, "v")) [shape=note, label=\"\(v.viewClass)\"];")
                lines.append("  \(id(c, "c")) -> \(id(v, "v")) [style=dotted, arrowhead=none, color=gray];")
            }
        }
        lines.append("  \(id(hostingView, "v")) [shape=note, style=filled, fillcolor=\"#f4f4f4\", label=\"HostingView\"];")
        for r in responders { lines.append("  \(id(r, "r")) [shape=hexagon, label=\"\(r.name)\"];") }
        var drawn: Set<String> = []
        // A responder's chain is the same from every leaf that reaches it: each walk stops at the
        // first edge already drawn, so drawing every chain costs one step per edge (was O(leaves × depth)).
        for leaf in all where leaf.children.isEmpty {
            var a = Responder.component(leaf)
            while let b = runtime.nextResponder(a) {
                try runtime.limits.tick()
                let edge = "  \(id(a.object, prefix(a))) -> \(id(b.object, prefix(b))) [color=red, style=dashed, constraint=false];"
                guard drawn.insert(edge).inserted else { break }
                lines.append(edge)
                a = b
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func prefix(_ r: Responder) -> String {
        switch r {
        case .component: "c"
        case .controller: "k"
        case .view: "v"
        case .script: "r"
        }
    }

    private func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if ch.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(ch.value, radix: 16).count) + String(ch.value, radix: 16) } else { out.unicodeScalars.append(ch) }
            }
        }
        return out + "\""
    }
}

extension String {
    func replacingQuotes() -> String {
        var out = ""
        for ch in self { out += ch == "\"" ? "\\\"" : String(ch) }
        return out
    }
}
