import CKCore
import CLua
import CLuaShims

/// Views, events, attributes and scopes: read-only runtime objects.
enum ViewBinding {
    static func register(in engine: Engine) {
        engine.defineMetatable(.view, index: { args, key in
            let v: View = try args.object(1, "self", "a view")
            let e = args.engine, L = args.L
            switch key {
            case "class": e.pushString(v.hostingHost != nil ? "HostingView" : v.viewClass, L)
            case "superview": e.push(v.superview)
            case "subviews": e.pushList(v.subviews, L)
            case "attributes": e.push(v.attributes, L)
            case "component": e.push(v.component?.isMounted == true ? v.component : nil)
            case "host": e.push(v.hostingHost)
            default: lua_pushnil(L)
            }
            return 1
        }, tostring: { args in
            let v: View = try args.object(1, "self", "a view")
            if v.hostingHost != nil { return "<HostingView>" }
            return "<\(v.viewClass)\(v.component.map { " of \($0.label)" } ?? "")>"
        })
        engine.defineMetatable(.event, index: { args, key in
            let ev: Event = try args.object(1, "self", "an event")
            switch key {
            case "type": args.engine.pushString(ev.type, args.L)
            case "view": args.engine.push(ev.view)
            default: lua_pushnil(args.L)
            }
            return 1
        }, tostring: { args in
            let ev: Event = try args.object(1, "self", "an event")
            return "<Event \(ev.type)>"
        })
        engine.defineMetatable(.attribute, index: { args, key in
            let a: ActionAttribute = try args.object(1, "self", "an attribute")
            switch key {
            case "action": args.engine.push(a.action)
            case "kind":
                if case .control = a.kind { args.engine.pushString("control", args.L) } else { args.engine.pushString("tap", args.L) }
            case "events":
                if case .control(let events) = a.kind { args.engine.pushStrings(events, args.L) } else { lua_pushnil(args.L) }
            default: lua_pushnil(args.L)
            }
            return 1
        }, tostring: { args in
            let a: ActionAttribute = try args.object(1, "self", "an attribute")
            switch a.kind {
            case .tap: return "<onTap \(a.action?.selector ?? "nil")>"
            case .control(let events): return "<onControl \(a.action?.selector ?? "nil") on \(events.joined(separator: ","))>"
            }
        })
        engine.defineMetatable(.scope, index: { args, key in
            let s: Scope = try args.object(1, "self", "a scope")
            let e = args.engine, L = args.L
            switch key {
            case "path": e.pushString(s.path, L)
            case "identifier": e.push(s.identifier, L)
            case "key": e.push(s.key, L)
            case "state": e.push(s.state, L)
            case "isLive": lua_pushboolean(L, s.isLive ? 1 : 0)
            case "controller": e.push(s.controller)
            case "component": e.push(s.component)
            default: lua_pushnil(L)
            }
            return 1
        }, tostring: { args in
            let s: Scope = try args.object(1, "self", "a scope")
            return "<scope \(s.path)\(s.isLive ? "" : ", gone")>"
        })
        engine.setFunction("componentOf", qualified: "ck.componentOf") { args in
            let v: View = try args.object(1, "view", "a view")
            args.engine.push(v.component?.isMounted == true ? v.component : nil)
            return 1
        }
        engine.setFunction("controllerOf", qualified: "ck.controllerOf") { args in
            let c: Component = try args.object(1, "component", "a component")
            args.engine.push(c.controller)
            return 1
        }
    }
}

extension Engine {
    func pushList(_ objects: [RuntimeObject], _ L: OpaquePointer) {
        lua_createtable(L, Int32(objects.count), 0)
        for (i, o) in objects.enumerated() {
            push(o, L)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    func pushStrings(_ strings: [String], _ L: OpaquePointer) {
        lua_createtable(L, Int32(strings.count), 0)
        for (i, s) in strings.enumerated() {
            pushString(s, L)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
    }

    /// Reads `t[name]` without metamethods; pushes the value and returns its type.
    @discardableResult
    func rawField(_ L: OpaquePointer, _ index: Int32, _ name: String) -> Int32 {
        name.withCString { ck_rawgetfield(L, index, $0) }
    }

    /// `{class = "UIButton", attributes = {...}}` → a view spec; action attributes are split
    /// out in attribute order (array part first, then keys sorted).
    func viewSpec(_ v: Value, in owner: String) throws -> ViewSpec? {
        guard case .table(let ref) = v else {
            if v.isNil { return nil }
            throw RuntimeError(.badReturn, "the view of \(owner) is a \(v.typeName); use {class = \"UIView\", attributes = {...}}")
        }
        let L = self.L
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        (ref as! LuaRef).push(L)
        let t = lua_gettop(L)
        guard rawField(L, t, "class") == LUA_TSTRING, let cls = lua.string(at: -1, on: L) else {
            throw RuntimeError(.badArgument, "the view of \(owner) needs class = \"UIView\" (a view class name)")
        }
        guard rawField(L, t, "attributes") == LUA_TTABLE else { return ViewSpec(viewClass: cls) }
        let attrs = lua_gettop(L)
        lua_createtable(L, 0, 4)
        let plain = lua_gettop(L)
        var keyed: [(String, ActionAttribute)] = []
        let n = lua_rawlen(L, attrs)
        lua_pushnil(L)
        while lua_next(L, attrs) != 0 {
            if let a = objects.object(at: -1, L) as? ActionAttribute {
                if lua_isinteger(L, -2) != 0, case let i = lua_tointegerx(L, -2, nil), i >= 1, i <= n {
                    keyed.append((String(format6(i)), a))
                } else {
                    keyed.append(("~" + lua.describe(at: -2, on: L), a))
                }
                ck_pop(L, 1)
            } else {
                lua_pushvalue(L, -2)
                ck_insert(L, -2)
                lua_rawset(L, plain)
            }
        }
        return ViewSpec(viewClass: cls, attributes: value(at: plain, L), actions: keyed.sorted { $0.0 < $1.0 }.map(\.1))
    }

    private func format6(_ i: lua_Integer) -> String {
        let s = String(i)
        return String(repeating: "0", count: max(0, 12 - s.count)) + s
    }

    /// A one-line rendering of a value for dumps: `{count = 1, title = "x"}`.
    func describe(_ v: Value) -> String {
        switch v {
        case .string(let s): return "\"\(s)\""
        case .table:
            let L = self.L
            push(v, L)
            defer { ck_pop(L, 1) }
            return describeTable(at: lua_gettop(L), depth: 0, L)
        default:
            push(v, L)
            defer { ck_pop(L, 1) }
            return lua.describe(at: -1, on: L)
        }
    }

    private func describeTable(at t: Int32, depth: Int, _ L: OpaquePointer) -> String {
        if depth > 1 { return "{…}" }
        var parts: [(String, String)] = []
        lua_pushnil(L)
        while lua_next(L, t) != 0 {
            if parts.count >= 20 { ck_pop(L, 2); parts.append(("~", "…")); break }
            let key = lua_type(L, -2) == LUA_TSTRING ? lua.string(at: -2, on: L)! : "[\(lua.describe(at: -2, on: L))]"
            let val: String
            switch lua_type(L, -1) {
            case LUA_TSTRING: val = "\"\(lua.string(at: -1, on: L)!)\""
            case LUA_TTABLE: val = describeTable(at: lua_gettop(L), depth: depth + 1, L)
            default: val = lua.describe(at: -1, on: L)
            }
            parts.append((key, val))
            ck_pop(L, 1)
        }
        return "{" + parts.sorted { $0.0 < $1.0 }.map { "\($0.0) = \($0.1)" }.joined(separator: ", ") + "}"
    }
}
