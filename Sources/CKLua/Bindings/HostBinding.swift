import CKCore

/// `ck.host(provider, opts)` and host objects.
enum HostBinding {
    typealias Method = (Arguments, Host) throws -> Int32

    /// Methods of host objects.
    static var methods: [(String, Method)] {
        [("mount", { _, h in try h.mount(); return 0 }), ("unmount", { _, h in try h.unmount(); return 0 }),
         ("update", { args, h in try h.update(model: args.engine.hosts.owned(by: h) { args.engine.values.carriedValue(at: 2, args.L) }); return 0 }),
         ("flush", { _, h in try h.flush(); return 0 }), ("appear", { _, h in try h.appear(); return 0 }),
         ("disappear", { _, h in try h.disappear(); return 0 }), ("destroy", { _, h in try h.destroy(); return 0 }),
         ("find", find), ("findAll", findAll), ("dump", dump), ("tap", tap), ("controlEvent", controlEvent),
         ("reload", reload)]
    }

    static func register(in engine: Engine) {
        var ids: [String: Int32] = [:]
        for (name, body) in methods {
            engine.functions.registerMethod(name, of: "host", into: &ids) { (args, h: Host) in
                // A finalizer's host may be in the collection's window (Arena.refind).
                args.engine.values.refindArena(args.engine.ownership.arena(of: h), heldByHandleAt: 1, kind: .host, args.L)
                return try body(args, h)
            }
        }
        engine.functions.defineMetatable(.host, methods: ids, index: { args, key in try index(args, key, methods: ids) }, tostring: tostring)
        engine.functions.setFunctions([("host", host), ("run", run)], prefix: "ck.")
    }

    static func find(_ args: Arguments, _ h: Host) throws -> Int32 {
        args.engine.values.push(try h.find(try args.string(2, "query")))
        return 1
    }

    static func findAll(_ args: Arguments, _ h: Host) throws -> Int32 {
        let all = try h.findAll(try args.string(2, "query"))
        args.engine.values.pushList(all, args.L)
        return 1
    }

    static func dump(_ args: Arguments, _ h: Host) throws -> Int32 {
        try h.checkAlive("dump")
        let shape = try dumpShape(args), inspection = args.engine.inspection
        args.engine.values.pushString(try h.dump(describe: { try inspection.describe($0, shape: shape) }), args.L)
        return 1
    }

    /// `host:dump{depth = 2, width = 20}`: how much of each state to write; all of it by default.
    private static func dumpShape(_ args: Arguments) throws -> DumpShape {
        if args.isNil(2) { return .whole }
        try args.table(2, "options")
        return DumpShape(depth: try args.positiveField(2, "depth", of: "options"),
                         width: try args.positiveField(2, "width", of: "options"))
    }

    static func tap(_ args: Arguments, _ h: Host) throws -> Int32 {
        let sent = switch try target(args) {
        case .query(let q): try h.tap(q)
        case .component(let c): try h.tap(c)
        case .view(let v): try h.tap(v)
        }
        LuaStack(args.L).push(sent)
        return 1
    }

    static func controlEvent(_ args: Arguments, _ h: Host) throws -> Int32 {
        let name = try args.string(3, "eventName")
        // A text field's text (`event.text`): a string of any bytes, or nothing.
        let text = args.isNil(4) ? nil : try args.carriedString(4, "text")
        let sent = switch try target(args) {
        case .query(let q): try h.controlEvent(q, name, text: text)
        case .component(let c): try h.controlEvent(c, name, text: text)
        case .view(let v): try h.controlEvent(v, name, text: text)
        }
        LuaStack(args.L).push(sent)
        return 1
    }

    /// What `tap` and `controlEvent` aim at: a query, a component (what `find` and `findAll`
    /// return, as a test library's `click(element)` takes one) or a view (standing for the
    /// component mounted in it now, which a rebuild does not make stale).
    private enum Target { case query(String), component(Component), view(View) }

    private static func target(_ args: Arguments) throws -> Target {
        if let c = args.engine.objects.component(at: 2, args.L) { return .component(c) }
        if LuaStack(args.L).isString(2) { return .query(try args.string(2, "query")) }
        if let v = args.engine.objects.object(at: 2, args.L) as? View { return .view(v) }
        throw args.bad(2, "query", "a query string, a component or a view")
    }

    static func reload(_ args: Arguments, _ h: Host) throws -> Int32 {
        let e = args.engine
        try h.reload(provider: try e.hosts.owned(by: h) { try e.hosts.provider(at: 2, args.L) })
        return 0
    }

    static func index(_ args: Arguments, _ key: String, methods: [String: Int32]) throws -> Int32 {
        let h: Host = try args.object(1, "self", "a host")
        let e = args.engine, L = args.L
        switch key {
        case "root": e.values.push(h.root)
        case "view": e.values.push(h.hostingView, L)
        case "generation": LuaStack(L).push(h.generation)
        case "isMounted": LuaStack(L).push(h.isMounted)
        case "isDestroyed": LuaStack(L).push(h.isDestroyed)
        default:
            if let id = methods[key] { SwiftFunctions.pushFunction(id, L) } else { LuaStack(L).pushNil() }
        }
        return 1
    }

    static func tostring(_ args: Arguments) throws -> String {
        let h: Host = try args.object(1, "self", "a host")
        let state = h.isDestroyed ? "destroyed" : h.isMounted ? "mounted" : "unmounted"
        return "<Host \(h.root?.label ?? "(empty)") gen \(h.generation), \(state)>"
    }

    static func host(_ args: Arguments) throws -> Int32 {
        let h = try args.engine.hosts.make(providerAt: 1, optsAt: 2, args.L)
        args.engine.values.push(h, args.L)
        return 1
    }

    /// `ck.run`: hosts, mounts and binds the global `app` (raw: a strict `_G` does not object).
    static func run(_ args: Arguments) throws -> Int32 {
        if let h = try args.engine.app.reloadRunning(providerAt: 1, optsAt: 2, args.L) {
            args.engine.values.push(h, args.L)
            return 1
        }
        let h = try args.engine.hosts.make(providerAt: 1, optsAt: 2, args.L)
        // Bound before the first mount: a callback's error there leaves the app running.
        args.engine.appHostObject = h
        args.engine.values.push(h, args.L)
        LuaStack(args.L).pushValue(at: -1)
        args.engine.lua.setGlobal("app", on: args.L)
        try h.mount()
        return 1
    }
}

extension Value {
    var identity: UInt? {
        switch self {
        case .table(let r), .function(let r), .opaque(let r): r.identity
        default: nil
        }
    }
}
