import CKCore

/// `ck.host(provider, opts)` and host objects.
enum HostBinding {
    typealias Method = (Arguments, Host) throws -> Int32

    /// Methods of host objects.
    static var methods: [(String, Method)] {
        [("mount", { _, h in try h.mount(); return 0 }), ("unmount", { _, h in try h.unmount(); return 0 }),
         ("update", { args, h in try h.update(model: args.engine.owned(by: h) { args.engine.carriedValue(at: 2, args.L) }); return 0 }),
         ("flush", { _, h in try h.flush(); return 0 }), ("appear", { _, h in try h.appear(); return 0 }),
         ("disappear", { _, h in try h.disappear(); return 0 }), ("destroy", { _, h in try h.destroy(); return 0 }),
         ("find", find), ("findAll", findAll), ("dump", dump), ("tap", tap), ("controlEvent", controlEvent),
         ("reload", reload)]
    }

    static func register(in engine: Engine) {
        var ids: [String: Int32] = [:]
        for (name, body) in methods { engine.registerMethod(name, of: "host", into: &ids, body) }
        engine.defineMetatable(.host, methods: ids, index: { args, key in try index(args, key, methods: ids) }, tostring: tostring)
        engine.setFunctions([("host", host), ("run", run)], prefix: "ck.")
    }

    static func find(_ args: Arguments, _ h: Host) throws -> Int32 {
        args.engine.push(try h.find(try args.string(2, "query")))
        return 1
    }

    static func findAll(_ args: Arguments, _ h: Host) throws -> Int32 {
        let all = try h.findAll(try args.string(2, "query"))
        args.engine.pushList(all, args.L)
        return 1
    }

    static func dump(_ args: Arguments, _ h: Host) throws -> Int32 {
        try h.checkAlive("dump")
        args.engine.pushString(try h.dump(describe: args.engine.inspection.describe), args.L)
        return 1
    }

    static func tap(_ args: Arguments, _ h: Host) throws -> Int32 {
        LuaStack(args.L).push(try h.tap(try args.string(2, "query")))
        return 1
    }

    static func controlEvent(_ args: Arguments, _ h: Host) throws -> Int32 {
        LuaStack(args.L).push(try h.controlEvent(try args.string(2, "query"), try args.string(3, "eventName")))
        return 1
    }

    static func reload(_ args: Arguments, _ h: Host) throws -> Int32 {
        let e = args.engine
        try h.reload(provider: try e.owned(by: h) { try e.provider(at: 2, args.L) })
        return 0
    }

    static func index(_ args: Arguments, _ key: String, methods: [String: Int32]) throws -> Int32 {
        let h: Host = try args.object(1, "self", "a host")
        let e = args.engine, L = args.L
        switch key {
        case "root": e.push(h.root)
        case "view": e.push(h.hostingView, L)
        case "generation": LuaStack(L).push(h.generation)
        case "isMounted": LuaStack(L).push(h.isMounted)
        case "isDestroyed": LuaStack(L).push(h.isDestroyed)
        default:
            if let id = methods[key] { e.pushFunction(id, L) } else { LuaStack(L).pushNil() }
        }
        return 1
    }

    static func tostring(_ args: Arguments) throws -> String {
        let h: Host = try args.object(1, "self", "a host")
        let state = h.isDestroyed ? "destroyed" : h.isMounted ? "mounted" : "unmounted"
        return "<Host \(h.root?.label ?? "(empty)") gen \(h.generation), \(state)>"
    }

    static func host(_ args: Arguments) throws -> Int32 {
        let h = try args.engine.makeHost(providerAt: 1, optsAt: 2, args.L)
        args.engine.push(h, args.L)
        return 1
    }

    /// `ck.run`: hosts, mounts and binds the global `app` (raw: a strict `_G` does not object).
    static func run(_ args: Arguments) throws -> Int32 {
        if let h = try args.engine.reloadRunningApp(providerAt: 1, optsAt: 2, args.L) {
            args.engine.push(h, args.L)
            return 1
        }
        let h = try args.engine.makeHost(providerAt: 1, optsAt: 2, args.L)
        try h.mount()
        args.engine.appHostObject = h
        args.engine.push(h, args.L)
        LuaStack(args.L).pushValue(at: -1)
        args.engine.lua.setGlobal("app", on: args.L)
        return 1
    }
}

extension Engine {
    /// A host and its arena (Ownership.swift): its provider, model and responders live there,
    /// and so does what its builds make.
    func makeHost(providerAt p: Int32, optsAt o: Int32, _ L: OpaquePointer) throws -> Host {
        let arena = newArena()
        let host = try withHome(.arena(arena)) {
            let provider = try provider(at: p, L)
            let (model, responders) = try hostOptions(at: o, L)
            return try Host(runtime: runtime, model: model, responders: responders, scriptArena: arena, provider: provider)
        }
        arena.owner = ObjectIdentifier(host)
        return host
    }

    /// Runs `body` with new references going to `host`'s arena.
    func owned<T>(by host: Host, _ body: () throws -> T) rethrows -> T {
        guard let arena = arena(of: host) else { return try body() }
        return try withHome(.arena(arena), body)
    }

    /// `opts.model` and `opts.responders` of `ck.host`/`ck.run` (o = 0: none).
    func hostOptions(at o: Int32, _ L: OpaquePointer) throws -> (Value, [ScriptResponder]) {
        var model = Value.nil
        var responders: [ScriptResponder] = []
        if o != 0, LuaStack(L).isTable(o) {
            rawField(L, o, "model")
            model = carriedValue(at: -1, L)
            LuaStack(L).pop(1)
            rawField(L, o, "responders")
            let list = LuaStack(L).top
            if LuaStack(L).isTable(list) {
                try forEachItem(ofList: list, L) { i in
                    guard LuaStack(L).isTable(-1) else {
                        throw RuntimeError(.badArgument, "ck.host: opts.responders[\(i)] must be a table {name = ..., methods = {...}}")
                    }
                    responders.append(scriptResponder(at: LuaStack(L).top, L))
                }
            } else if !LuaStack(L).isNil(list) {
                throw RuntimeError(.badArgument, "ck.host: opts.responders must be a list of responder tables")
            }
            LuaStack(L).pop(1)
        } else if o != 0, !LuaStack(L).isNil(o) {
            throw RuntimeError(.badArgument, "ck.host: argument #2 (opts) must be a table or nil, got \(LuaStack(L).typeName(o))")
        }
        return (model, responders)
    }

    /// A provider function, or a component class standing for `Class(model)`.
    func provider(at p: Int32, _ L: OpaquePointer) throws -> (Value) throws -> Component? {
        if let cls = objects.object(at: p, L) as? ComponentClass {
            return { [unowned self] model in
                let L = self.runningThread
                self.push(model, L)
                defer { LuaStack(L).pop(1) }
                return try self.classes.construct(cls, propsAt: LuaStack(L).top, L)
            }
        }
        guard LuaStack(L).isFunction(p) else {
            throw RuntimeError(.badArgument, "ck.host: argument #1 (provider) must be a function or a component class, got \(value(at: p, L).typeName)")
        }
        let f = reference(at: p, L, .function)
        return { [unowned self] model in
            let v = try self.callForValue(f, model)
            switch v {
            case .nil: return nil
            case .object(let c as Component): return c
            default:
                let at = self.definition(of: f).map { " (defined at \($0))" } ?? ""
                throw RuntimeError(.badReturn, "the host's provider\(at) returned \(Engine.withArticle(v.typeName)); return one component built with Class(props), or nil\(ClassBridge.severalChildrenHint(v))")
            }
        }
    }

    /// A responder table: `{name = "ViewController", methods = {...}}`, or any table with methods.
    func scriptResponder(at index: Int32, _ L: OpaquePointer) -> ScriptResponder {
        let index = LuaStack(L).absolute(index)
        let identity = LuaStack(L).identity(index)
        for host in runtime.allHosts {
            if let r = host.responders.first(where: { $0.table.identity == identity }) { return r }
        }
        rawField(L, index, "name")
        let name = lua.string(at: -1, on: L) ?? "table"
        LuaStack(L).pop(1)
        let table = reference(at: index, L, .table)
        return ScriptResponder(name: name, table: .table(table), lookup: { [unowned self] sel in
            self.responderMethod(table, sel)
        })
    }

    private func responderMethod(_ table: LuaRef, _ selector: String) -> Method? {
        let L = self.runningThread
        let base = LuaStack(L).top
        defer { LuaStack(L).top = base }
        table.push(L)
        if rawField(L, -1, "methods") == .table, let m = responderMethod(selector, at: rawField(L, -1, selector), L) { return m }
        LuaStack(L).top = base + 1
        return responderMethod(selector, at: rawField(L, -1, selector), L)
    }

    /// The method on top of the stack (of type `type`): a function, or a spy or stub replacing one
    /// (a callable table, given every argument).
    private func responderMethod(_ selector: String, at type: LuaType, _ L: OpaquePointer) -> Method? {
        if type == .function { return method(at: -1, name: selector, hasSelf: true, L) }
        guard LuaStack(L).isCallableTable(-1) else { return nil }
        return callableMethod(at: -1, name: selector, like: nil, L)
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
