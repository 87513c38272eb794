import CKCore

/// The built-in classes: `ck.Stack`, `ck.View`, `ck.Text` (a UILabel) and `ck.Button`
/// (a UIButton whose `action` prop is typed `{"Event"}`).
enum BuiltinsBinding {
    /// The closures capture the engine unowned(unsafe), as every class's do (see defineComponentClass).
    static func register(in engine: Engine) {
        let stack = builtin("Stack", in: engine)
        stack.children = { [unowned(unsafe) engine] c in
            return try engine.componentList(engine.prop(c, "children"), in: c, field: "children")
        }

        let view = builtin("View", in: engine)
        view.view = { [unowned(unsafe) engine] c in
            guard case .string(let cls) = engine.prop(c, "class") else {
                throw RuntimeError(.badArgument, "ck.View{class=...}: class must be a view class name, at \(c.path)")
            }
            let spec = engine.scriptTables.makeTable([("class", .string(cls)), ("attributes", engine.prop(c, "attributes"))])
            return try engine.viewSpec(spec, in: c.name)
        }
        view.render = { [unowned(unsafe) engine] c in try engine.component(engine.prop(c, "child"), in: c, field: "child") }

        let text = builtin("Text", in: engine)
        text.view = { [unowned(unsafe) engine] c in
            return ViewSpec(viewClass: "UILabel", attributes: engine.scriptTables.makeTable([("text", engine.prop(c, "text"))]))
        }

        let button = builtin("Button", in: engine)
        button.actionProps = [(name: "action", types: [.className("Event")])]
        button.view = { [unowned(unsafe) engine] c in
            var events = [Gesture.touchUpInside.name]
            switch engine.prop(c, "events") {
            case .string(let s): events = [s]
            case .table(let t): events = try engine.strings(in: t)
            default: break
            }
            let action = engine.prop(c, "action").object as? Action
            return ViewSpec(viewClass: "UIButton",
                            attributes: engine.scriptTables.makeTable([("title", engine.prop(c, "title"))]),
                            actions: [ActionAttribute(kind: .control, events: events, action: action)])
        }
    }

    private static func builtin(_ name: String, in engine: Engine) -> ComponentClass {
        let L = engine.lua.L
        let cls = try! engine.defineComponentClass(name, defAt: 0, L)
        cls.knownProps = NameCheck.builtinProps[name]
        engine.push(cls, L)
        LuaStack(L).setField(name, of: -2)
        return cls
    }
}

extension Engine {

    func component(_ v: Value, in c: Component, field: String) throws -> Component? {
        switch v {
        case .nil: return nil
        case .object(let o as Component): return o
        default: throw RuntimeError(.badArgument, "\(c.name){\(field)=...} must be a component, got \(v.typeName), at \(c.path)")
        }
    }

    func componentList(_ v: Value, in c: Component, field: String) throws -> [Component] {
        guard case .table(let ref) = v else {
            if v.isNil { return [] }
            throw RuntimeError(.badArgument, "\(c.name){\(field)=...} must be a list of components, got \(v.typeName), at \(c.path)")
        }
        let L = self.runningThread
        (ref as! LuaRef).push(L)
        defer { LuaStack(L).pop(1) }
        var out: [Component] = []
        try forEachItem(ofList: -1, L) { i in
            guard let child = objects.object(at: -1, L) as? Component else {
                throw RuntimeError(.badArgument, "\(c.name){\(field)=...}[\(i)] must be a component, at \(c.path)")
            }
            out.append(child)
        }
        return out
    }

    /// The strings of a list (other items are skipped).
    func strings(in ref: ScriptRef) throws -> [String] {
        let L = self.runningThread
        (ref as! LuaRef).push(L)
        defer { LuaStack(L).pop(1) }
        var out: [String] = []
        try forEachItem(ofList: -1, L) { _ in
            if let s = lua.string(at: -1, on: L) { out.append(s) }
        }
        return out
    }
}
