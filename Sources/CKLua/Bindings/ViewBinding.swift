import CKCore

/// Views, events, attributes and scopes: read-only runtime objects.
enum ViewBinding {
    static func register(in engine: Engine) {
        registerViews(in: engine)
        registerEvents(in: engine)
        registerAttributes(in: engine)
        registerScopes(in: engine)
        registerLookups(in: engine)
    }

    private static func registerViews(in engine: Engine) {
        engine.functions.defineMetatable(.view, index: { args, key in
            let v: View = try args.object(1, "self", "a view")
            let e = args.engine, L = args.L
            switch key {
            case "class": e.values.pushString(v.hostingHost != nil ? "HostingView" : v.viewClass, L)
            case "superview": e.values.push(v.superview)
            case "subviews": e.values.pushList(v.subviews, L)
            // Every view has the same fields (atk-spec 04: the hosting view's attributes were nil):
            // a view without plain attributes shows an empty table.
            case "attributes":
                if v.attributes.isNil { LuaStack(L).newTable(array: 0, fields: 0) } else { e.values.push(v.attributes, L) }
            case "component": e.values.push(v.component?.isMounted == true ? v.component : nil)
            case "host": e.values.push(v.hostingHost ?? (v.component?.isMounted == true ? v.component?.host : nil))
            default: LuaStack(L).pushNil()
            }
            return 1
        }, tostring: { args in
            let v: View = try args.object(1, "self", "a view")
            if v.hostingHost != nil { return "<HostingView>" }
            return "<\(ObjectText.name(v.viewClass))\(v.component.map { " of \($0.label)" } ?? "")>"
        })
    }

    private static func registerEvents(in engine: Engine) {
        engine.functions.defineMetatable(.event, index: { args, key in
            let ev: Event = try args.object(1, "self", "an event")
            switch key {
            case "type": args.engine.values.pushString(ev.type, args.L)
            case "view": args.engine.values.push(ev.view)
            case "text": if let text = ev.text { args.engine.values.pushCarried(text, args.L) } else { LuaStack(args.L).pushNil() }
            default: LuaStack(args.L).pushNil()
            }
            return 1
        }, tostring: { args in
            let ev: Event = try args.object(1, "self", "an event")
            return "<Event \(ObjectText.name(ev.type))>"
        })
    }

    private static func registerAttributes(in engine: Engine) {
        engine.functions.defineMetatable(.attribute, index: { args, key in
            let a: ActionAttribute = try args.object(1, "self", "an attribute")
            switch key {
            case "action": args.engine.values.push(a.action)
            case "kind": args.engine.values.pushString(a.kind.traits.name, args.L)
            case "events":
                if a.kind.traits.listsEvents { args.engine.values.pushStrings(a.gestures.map(\.name), args.L) } else { LuaStack(args.L).pushNil() }
            default: LuaStack(args.L).pushNil()
            }
            return 1
        }, tostring: { args in
            let a: ActionAttribute = try args.object(1, "self", "an attribute")
            let traits = a.kind.traits
            let on = traits.listsEvents ? " on " + ObjectText.name(a.gestures.map(\.name).joined(separator: ",")) : ""
            return "<\(traits.function) \(ObjectText.name(a.action?.selector ?? "nil"))\(on)>"
        })
    }

    private static func registerScopes(in engine: Engine) {
        engine.functions.defineMetatable(.scope, index: { args, key in
            let s: Scope = try args.object(1, "self", "a scope")
            let L = args.L
            // Borrowed: `e.values` of an owned engine costs a retain a read (`scope.component` is on
            // the update path).
            args.withEngine { e in
                switch key {                // the hot one first: each case is a comparison
                case "component": e.values.push(s.component)
                case "path": e.values.pushString(s.path, L)
                case "identifier": e.values.push(s.identifier, L)
                case "key": e.values.push(s.key, L)
                case "state":
                    e.values.refindArena(of: s.state, heldByHandleAt: 1, kind: .scope, L)
                    e.values.pushState(s.state, of: s.component?.componentClass, L)
                case "isLive": LuaStack(L).push(s.isLive)
                case "controller": e.values.push(s.answeringController)
                default: LuaStack(L).pushNil()
                }
            }
            return 1
        }, tostring: { args in
            let s: Scope = try args.object(1, "self", "a scope")
            return "<scope \(s.shownPath)\(s.isLive ? "" : ", gone")>"
        })
    }

    private static func registerLookups(in engine: Engine) {
        engine.functions.setFunctions([("componentOf", componentOf), ("controllerOf", controllerOf)], prefix: "ck.")
    }

    /// `ck.componentOf(view)`: the mounted component of a view, or nil.
    static func componentOf(_ args: Arguments) throws -> Int32 {
        let v: View = try args.object(1, "view", "a view")
        args.engine.values.push(v.component?.isMounted == true ? v.component : nil)
        return 1
    }

    static func controllerOf(_ args: Arguments) throws -> Int32 {
        let c: Component = try args.object(1, "component", "a component")
        args.engine.values.push(c.controller)
        return 1
    }
}
