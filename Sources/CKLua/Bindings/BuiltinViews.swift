import CKCore

/// A built-in's view spec, from its declaration: the view class (fixed, or the one its view
/// class prop names: `ck.View`'s `class`), the plain attributes (its attributes table and its
/// attribute props), and each action prop as an attribute sent on its gesture or on the
/// control events its `events` prop names.
struct BuiltinViews {
    unowned(unsafe) let engine: Engine
    let builtin: Builtin

    func spec(of c: Component) throws -> ViewSpec {
        let made = builtin.made, viewClass = try className(of: c)
        let actions = try made.actions.map { try attribute($0, of: c) }
        guard let table = made.attributesTable else {
            return ViewSpec(viewClass: viewClass, attributes: plainAttributes(of: c, into: nil), actions: actions)
        }
        let given = engine.scriptTables.makeTable([("class", .string(viewClass)), ("attributes", engine.classes.prop(c, table))])
        let spec = try engine.hosts.viewSpec(given, in: c.shownName) ?? ViewSpec(viewClass: viewClass)
        if made.attributes.isEmpty && actions.isEmpty { return spec }
        return ViewSpec(viewClass: viewClass, attributes: plainAttributes(of: c, into: spec.attributes), actions: spec.actions + actions)
    }

    private func className(of c: Component) throws -> String {
        if let fixed = builtin.viewClass { return fixed }
        let prop = builtin.made.viewClassProp ?? "class"
        guard case .string(let name) = engine.classes.prop(c, prop) else {
            throw RuntimeError(.badArgument, Self.badClass(c.shownName, prop, engine.classes.prop(c, prop)) + " (at \(c.shownPath))")
        }
        return name
    }

    /// The message for a view class prop that is no string (`ck.View{class = 5}`).
    static func badClass(_ builtin: String, _ prop: String, _ given: Value) -> String {
        "ck.\(builtin){\(prop) = …} must be a view class name, a string such as \"UIView\", got \(StackLayout.shown(given)); give the class of the view to make"
    }

    /// The attribute props' values set into `table` (one the spec made), or into a new table.
    private func plainAttributes(of c: Component, into table: Value?) -> Value {
        guard case .table(let ref)? = table else { return engine.scriptTables.copyFields(builtin.made.attributes, of: c.props) }
        let fields = builtin.made.attributes.map { ($0, engine.classes.prop(c, $0)) }
        let L = engine.runningThread
        (ref as! LuaRef).push(L)
        for (name, value) in fields {
            engine.values.push(value, L)
            LuaStack(L).setField(name, of: -2)
        }
        LuaStack(L).pop(1)
        return .table(ref)
    }

    /// The action prop as an attribute: sent on its gesture, or on the events its `events` prop
    /// names (a name, or a list whose other items are skipped).
    private func attribute(_ a: (prop: String, sentOn: Gesture, eventsProp: String?), of c: Component) throws -> ActionAttribute {
        var events = [a.sentOn.name]
        switch a.eventsProp.map({ engine.classes.prop(c, $0) }) ?? .nil {
        case .string(let name): events = [name]
        case .table(let list): events = try strings(in: list)
        default: break
        }
        NameCheck.controlEvents(events, engine: engine, L: nil)
        return ActionAttribute(kind: a.sentOn.kind, events: events, action: engine.classes.prop(c, a.prop).object as? Action)
    }

    /// The strings of a list (other items are skipped).
    private func strings(in ref: ScriptRef) throws -> [String] {
        let L = engine.runningThread
        (ref as! LuaRef).push(L)
        defer { LuaStack(L).pop(1) }
        var out: [String] = []
        try engine.values.forEachItem(ofList: -1, L) { _ in
            if let s = engine.lua.string(at: -1, on: L) { out.append(s) }
        }
        return out
    }
}
