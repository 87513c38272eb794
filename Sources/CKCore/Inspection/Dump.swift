extension Host {
    /// One line per component: class, `#identifier`, controller, view class and state.
    /// `describe` renders state values (the script side knows how).
    public func dump(describe: (Value) -> String) -> String {
        guard let root else { return "(empty)\n" }
        var lines: [String] = []
        var stack: [(Component, Int)] = [(root, 0)]
        while let (c, depth) = stack.popLast() {
            var line = String(repeating: "  ", count: depth) + c.label
            if let k = c.controller { line += " [\(k.controllerClass.name)]" }
            if let v = c.view { line += " <\(v.viewClass)>" } else if let spec = c.viewSpec { line += " <\(spec.viewClass), unmounted>" }
            if c.scope != nil, !c.state.isNil { line += " state=" + describe(c.state) }
            lines.append(line)
            for child in c.children.reversed() { stack.append((child, depth + 1)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
