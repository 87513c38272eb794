/// The mounted tree as data (issue 17): the core hands it out; `host:dump()` and the command
/// line's JSON, dot and SVG writers format it.
public final class TreeNode {
    public let component: Component
    /// `Class#identifier`.
    public let label: String
    /// From the root (`Card#1/Button`); computed when asked (a dump does not need it, and
    /// computing it for every node is quadratic in depth).
    public var path: String { component.path }
    /// The scope's identifier as the script gave it (nil when it has none: a key is no identifier).
    public let identifier: Value
    /// The `key` prop, as the script gave it (`1` and `"1"` stay apart).
    public let key: Value
    public let controller: String?
    /// The view class, and whether the view is mounted.
    public let viewClass: String?
    public let viewMounted: Bool
    /// The scope's state (scoped components only).
    public let state: Value?
    /// What is on screen: the view's plain attributes (Text's `text`, Button's `title`), every
    /// key, sorted by `name`: the key as a table constructor writes it (`title`, `["a b"]`, `[true]`).
    public let attributes: [(name: String, key: Value, value: Value)]
    /// The view's actions, one per gesture each answers: `touchUpInside -> <selector action save>`.
    public let actions: [(event: String, action: Action?)]
    public internal(set) var children: [TreeNode] = []

    /// A 100,000-deep tree frees without nesting 100,000 deinits (see `Reaper`).
    deinit {
        var stack = children
        children = []
        while var next = stack.popLast() {
            if isKnownUniquelyReferenced(&next) {
                stack.append(contentsOf: next.children)
                next.children = []
            }
        }
    }

    init(_ c: Component, attributes: [(name: String, key: Value, value: Value)]) {
        component = c
        label = c.label
        identifier = c.scope?.identifier ?? .nil
        key = c.key
        controller = c.controller?.controllerClass.name
        let spec = c.view?.spec ?? c.viewSpec
        viewClass = spec?.viewClass
        viewMounted = c.view != nil
        state = c.scope == nil ? nil : c.state
        self.attributes = attributes
        var actions: [(String, Action?)] = []
        for a in spec?.actions ?? [] {
            for gesture in a.gestures { actions.append((gesture.name, a.action)) }
        }
        self.actions = actions
    }

    /// Every node, parents first, with its depth.
    public func walk(_ body: (TreeNode, Int) throws -> Void) rethrows {
        var stack: [(TreeNode, Int)] = [(self, 0)]
        while let (node, depth) = stack.popLast() {
            try body(node, depth)
            for child in node.children.reversed() { stack.append((child, depth + 1)) }
        }
    }
}

/// Optional script-side support: a table's entries, and its keys' names.
public protocol ScriptTableListing: AnyObject {
    /// Every entry, sorted by `name`: the key as a table constructor writes it (`DumpText.key`).
    func entries(_ table: ScriptRef) throws -> [(name: String, key: Value, value: Value)]
    /// Every key of the table, non-string ones as `[key]`.
    func keyNames(_ table: ScriptRef) -> [String]
}

extension Host {
    /// The current tree as `TreeNode`s (nil when empty); iterative, for trees of any depth.
    /// Ticks the runtime's limits per component.
    public func tree() throws -> TreeNode? {
        guard let root else { return nil }
        let listing = runtime.tables as? ScriptTableListing
        func node(_ c: Component) throws -> TreeNode {
            var attributes: [(name: String, key: Value, value: Value)] = []
            if case .table(let t) = (c.view?.spec ?? c.viewSpec)?.attributes ?? .nil, let listing {
                attributes = try listing.entries(t).filter { !($0.value.isRuntimeObject) }
            }
            return TreeNode(c, attributes: attributes)
        }
        let top = try node(root)
        var stack: [TreeNode] = [top]
        while let parent = stack.popLast() {
            try runtime.limits.tick(parent.component.children.count)
            parent.children = try parent.component.children.map(node)
            stack.append(contentsOf: parent.children)
        }
        return top
    }

    /// Indentation stops growing at this depth; deeper lines say their depth instead, so a
    /// dump's size is linear in the tree's (a 30,000-deep chain indented in full is 900 MB).
    public static let dumpIndentLimit = 64

    /// One line per component: class, `#identifier`, controller, view class with what it
    /// shows, and state. `describe` renders values (the script side knows how). Lines deeper
    /// than `dumpIndentLimit` are indented that far and start with `(depth N) `. Ticks the
    /// runtime's limits, counting the text built so far.
    public func dump(describe: (Value) throws -> String) throws -> String {
        guard let tree = try tree() else { return "(empty)\n" }
        var out = ""
        try tree.walk { n, depth in
            var line = Host.indent(depth) + n.label
            if let k = n.controller { line += " [\(k)]" }
            if let v = n.viewClass {
                let shown = try n.attributes.map { " \($0.name)=\(try describe($0.value))" }.joined()
                line += " <\(v)\(shown)\(n.viewMounted ? "" : ", unmounted")>"
            }
            if let s = n.state, !s.isNil { line += " state=" + (try describe(s)) }
            line = DumpText.oneLine(line)
            // A line counts one unit a 256 bytes: a few huge states check the limits too.
            try runtime.limits.tick(1 + line.utf8.count >> 8, holding: out.utf8.count + line.utf8.count)
            out += line
            out += "\n"
        }
        return out
    }

    /// Two spaces a level up to `dumpIndentLimit`, then `(depth N) `.
    public static func indent(_ depth: Int) -> String {
        guard depth > dumpIndentLimit else { return String(repeating: "  ", count: depth) }
        return String(repeating: "  ", count: dumpIndentLimit) + "(depth \(depth)) "
    }
}

extension Value {
    /// Attribute values that are runtime objects (actions and attributes) are not what is shown.
    var isRuntimeObject: Bool {
        if case .object = self { return true }
        return false
    }
}
