import CKCore

/// A built-in's `children` and `child` props as components (SPEC §5). A children list is every
/// entry at a positive integer index, in index order, whatever its border says (`{nil, X{}}` is
/// one child: a walk to the first nil, or to `#t`, would lose it); `nil` and `false` entries are
/// skipped (`cond and X{}`); anything else is `[badArgument]`. `Class(props)` reads them
/// (`atConstruction`), so the error names the line that built the list, and the component keeps
/// its children (`Component.giveChildren`): one walk a list. A copy of a scoped built-in that an
/// update rebuilds reads them at its render (`children`, `child`), and says where in the tree.
struct ChildLists {
    unowned(unsafe) let engine: Engine
    let L: OpaquePointer

    /// An entry that is not a component, nil or false: its index and `a string ("oops")`.
    struct BadEntry {
        let index: Int64
        let what: String
    }

    /// At `Class(props)`: built-in `b`'s children from the props table at `t` (nil if it takes
    /// no list), its child checked; errors name what the running build runs. (Where is said only
    /// in an error: a path is as long as the tree is deep, and a chain of N built-ins made each
    /// one's path before, N² work.)
    func atConstruction(of b: Builtin, propsAt t: Int32) throws -> Listed? {
        let runtime = engine.runtime
        let inBuild = { runtime.buildActivity.map { " (in \($0))" } ?? "" }
        if let prop = b.made.child { try read(prop, of: b.name, tableAt: t, single: true, where: inBuild()) }
        guard let prop = b.made.children else { return nil }
        return try read(prop, of: b.name, tableAt: t, single: false, where: inBuild(), warnsDropped: true)
    }

    /// The children of a list, and each one's entry in it when a hole (`false`, nil) came
    /// before one (nil otherwise: child i is entry i + 1; `Component.slot(ofChildAt:)`).
    typealias Listed = (components: [Component], slots: [Int32]?)

    /// The children of `c` from its list prop `prop`.
    func children(of c: Component, prop: String) throws -> Listed {
        try withProp(prop, of: c) { t in try read(prop, of: c.shownName, tableAt: t, single: false, where: " at \(c.shownPath)") }
    }

    /// The child of `c` from its prop `prop` (a component or nil).
    func child(of c: Component, prop: String) throws -> Component? {
        try withProp(prop, of: c) { t in try read(prop, of: c.shownName, tableAt: t, single: true, where: " at \(c.shownPath)").components.first }
    }

    /// The index of `child` in the list prop `prop` of built-in `parent` as the script wrote it
    /// (`false` entries count), for a message that names an entry: a raw walk, running no Lua.
    /// The index of each component in `parent[prop]` (its first, walking the list once), for
    /// messages naming many siblings: one walk for all (issue 28: a walk per sibling named was
    /// quadratic in a list of duplicate keys).
    func entryIndices(inList prop: String, of parent: Component) -> [ObjectIdentifier: Int]? {
        try? withProp(prop, of: parent) { t in
            let stack = LuaStack(L), base = stack.top
            defer { stack.top = base }
            if stack.field(prop, of: t) == .userdata { _ = engine.values.unwrapReadOnlyView(at: -1, L) }
            guard stack.isTable(-1) else { return nil }
            let list = stack.top
            var indices: [ObjectIdentifier: Int] = [:]
            stack.pushNil()
            while stack.next(list) {
                try engine.runtime.limits.tick()
                if stack.isInteger(-2), let child = engine.objects.component(at: -1, L), indices[ObjectIdentifier(child)] == nil {
                    indices[ObjectIdentifier(child)] = Int(stack.integer(-2))
                }
                stack.pop(1)
            }
            return indices
        }
    }

    private func withProp<T>(_ prop: String, of c: Component, _ body: (Int32) throws -> T) throws -> T {
        let stack = LuaStack(L), base = stack.top
        defer { stack.top = base }
        guard case .table(let props) = c.props else { stack.pushNil(); return try body(stack.top) }
        (props as! LuaRef).push(L)
        return try body(stack.top)
    }

    /// `props[prop]` of the table at `t` (nil if `t` is not a table) as components.
    @discardableResult
    private func read(_ prop: String, of name: String, tableAt t: Int32, single: Bool,
                      where place: @autoclosure () -> String, warnsDropped: Bool = false) throws -> Listed {
        let stack = LuaStack(L)
        var type = stack.field(prop, of: t)
        defer { stack.pop(1) }
        if type == .userdata, engine.values.unwrapReadOnlyView(at: -1, L) != nil { type = .table }   // a props or state view
        if type == .nil || (type == .boolean && !stack.toBool(-1)) { return ([], nil) }   // nil, false: none
        if single {
            if let c = engine.objects.component(at: -1, L) { return ([c], nil) }
            throw bad("ck.\(name){\(prop) = …} must be a component or nil, got \(describe(at: -1))", place())
        }
        guard type == .table else {
            throw bad("ck.\(name){\(prop) = …} must be a list of components, got \(describe(at: -1))", place())
        }
        let (components, slots, entry, dropped) = try components(ofListAt: stack.top)
        if warnsDropped, let dropped { NameCheck.droppedChild(shownKey: dropped, of: name, prop: prop, engine: engine, L: L) }
        if let entry {
            throw bad("ck.\(name){\(prop) = …}: entry \(entry.index) is \(entry.what), not a component", place(),
                      fix: "; leave it out, or make it nil or false (cond and X{})")
        }
        return (components, slots)
    }

    private func bad(_ text: String, _ place: String, fix: String = "") -> RuntimeError {
        RuntimeError(.badArgument, text + place + fix)
    }

    /// The components of the list at `t` in index order, their entries when a hole came before
    /// one (else nil), its lowest-indexed bad entry, and a key that is no list index but holds a
    /// component (`[droppedChild]`). The common list (components at 1...n) is read in C
    /// (`componentsOfPlainList`); any other is walked here.
    /// `next` passes (no Lua runs during them), ticking the limits per entry: linear in the
    /// entries, never in the border. A list whose entries `next` meets out of index order (keys
    /// in the hash part) is walked again, keeping the indices to sort by.
    func components(ofListAt t: Int32) throws -> ([Component], [Int32]?, BadEntry?, String?) {
        if let plain = try engine.objects.componentsOfPlainList(at: t, L, limits: engine.runtime.limits) {
            return (plain, nil, nil, nil)
        }
        var walk = try self.walk(t, keepingIndices: false)
        var slots: [Int32]?
        if !walk.inOrder || walk.hasHoles {
            walk = try self.walk(t, keepingIndices: true)
            let indices = walk.indices
            let order = indices.indices.sorted { indices[$0] < indices[$1] }
            walk.components = order.map { walk.components[$0] }
            let entries = order.map { indices[$0] }
            // Holes before a child: each child's entry (clamped: a list past 2^31 entries is no list a build finishes).
            if entries.enumerated().contains(where: { $0.element != Int64($0.offset + 1) }) {
                slots = entries.map { Int32(clamping: $0) }
            }
        }
        // Described after the walk: `__tostring` is Lua, and may change the table.
        let entry = walk.badIndex.map { i in
            LuaStack(L).get(Int(i), from: t)
            defer { LuaStack(L).pop(1) }
            return BadEntry(index: i, what: describe(at: -1))
        }
        return (walk.components, slots, entry, walk.droppedKey)
    }

    private struct Walk {
        var components: [Component] = [], indices: [Int64] = []
        var inOrder = true, hasHoles = false, badIndex: Int64?, droppedKey: String?
    }

    /// One pass; without `keepingIndices` it stops at the first entry out of index order.
    private func walk(_ t: Int32, keepingIndices: Bool) throws -> Walk {
        let stack = LuaStack(L), base = stack.top, limits = engine.runtime.limits
        defer { stack.top = base }
        var walk = Walk(), last: Int64 = 0
        stack.pushNil()
        while stack.next(t) {
            try limits.tick()
            if stack.isInteger(-2), case let i = stack.integer(-2), i >= 1 {
                if i < last { walk.inOrder = false; if !keepingIndices { break } }
                last = i
                if let c = engine.objects.component(at: -1, L) {
                    if i != Int64(walk.components.count + 1) { walk.hasHoles = true }
                    walk.components.append(c)
                    if keepingIndices { walk.indices.append(i) }
                } else if stack.toBool(-1), walk.badIndex.map({ i < $0 }) ?? true {
                    walk.badIndex = i
                }
            } else if walk.droppedKey == nil, engine.objects.component(at: -1, L) != nil {
                walk.droppedKey = keyShown(at: -2)
            }
            stack.pop(1)
        }
        return walk
    }

    /// A key as a message shows it, running no Lua (a `next` walk is under way): a string as a
    /// Lua literal, a number, or its type.
    private func keyShown(at i: Int32) -> String {
        let stack = LuaStack(L)
        if stack.isString(i) { return engine.lua.quoted(at: i, on: L) }
        if stack.isInteger(i) { return String(stack.integer(i)) }
        return stack.type(i) == .number ? NumberText.text(stack.number(i)) : Article.with(stack.typeName(i))
    }

    /// `a string ("oops")`, `a table (table: 0x…)`: the type and a short `tostring`.
    private func describe(at i: Int32) -> String {
        let type = LuaStack(L).typeName(i)
        var shown = engine.lua.shown(at: i, on: L)
        if shown.count > 40 { shown = String(shown.prefix(40)) + "…" }
        if type == "string" { shown = "\"\(shown)\"" }   // bounded: cut above
        return "\(Engine.withArticle(type)) (\(shown))"
    }
}
