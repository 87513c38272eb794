extension Host {
    /// Indentation stops growing at this depth; deeper lines say their depth instead, so a
    /// dump's size is linear in the tree's (a 30,000-deep chain indented in full is 900 MB).
    public static let dumpIndentLimit = 64

    /// One line per component: class, `#identifier`, controller, view class and state.
    /// `describe` renders state values (the script side knows how). Lines deeper than
    /// `dumpIndentLimit` are indented that far and start with `(depth N) `. Ticks the
    /// runtime's limits, counting the text built so far.
    public func dump(describe: (Value) -> String) throws -> String {
        guard let root else { return "(empty)\n" }
        var out = ""
        var stack: [(Component, Int)] = [(root, 0)]
        while let (c, depth) = stack.popLast() {
            var line = Host.indent(depth) + c.label
            if let k = c.controller { line += " [\(k.controllerClass.name)]" }
            if let v = c.view { line += " <\(v.viewClass)>" } else if let spec = c.viewSpec { line += " <\(spec.viewClass), unmounted>" }
            if c.scope != nil, !c.state.isNil { line += " state=" + describe(c.state) }
            // A line counts one unit a 256 bytes: a few huge states check the limits too.
            try runtime.limits.tick(1 + line.utf8.count >> 8, holding: out.utf8.count + line.utf8.count)
            out += line
            out += "\n"
            for child in c.children.reversed() { stack.append((child, depth + 1)) }
        }
        return out
    }

    /// Two spaces a level up to `dumpIndentLimit`, then `(depth N) `.
    static func indent(_ depth: Int) -> String {
        guard depth > dumpIndentLimit else { return String(repeating: "  ", count: depth) }
        return String(repeating: "  ", count: dumpIndentLimit) + "(depth \(depth)) "
    }
}
