import CKCore

/// Hosts on the Lua side: a host made from a provider and `opts` (`ck.host`, `ck.run`, an app
/// file's returned provider) with the arena its script values live in, the responder tables a
/// host takes, and (ViewSpecs.swift) the view tables of component classes.
struct HostBridge {
    unowned(unsafe) let engine: Engine

    /// A host and its arena (Ownership.swift): its provider, model and responders live there,
    /// and so does what its builds make.
    func make(providerAt p: Int32, optsAt o: Int32, _ L: OpaquePointer) throws -> Host {
        let arena = engine.ownership.newArena()
        // Before the first build: a message about it may name the provider's line.
        let definition = engine.definition(ofFunctionAt: p, L)
        let host = try engine.ownership.withHome(.arena(arena)) {
            let provider = try provider(at: p, L)
            let (model, responders) = try options(at: o, L)
            return try Host(runtime: engine.runtime, model: model, responders: responders, scriptArena: arena,
                            providerDefinition: definition, provider: provider)
        }
        arena.owner = ObjectIdentifier(host)
        return host
    }

    /// Runs `body` with new references going to `host`'s arena (inlined, as `withHome`).
    @inline(__always)
    func owned<T>(by host: Host, _ body: () throws -> T) rethrows -> T {
        let engine = self.engine
        guard let arena = engine.ownership.arena(of: host) else { return try body() }
        return try engine.ownership.withHome(.arena(arena), body)
    }

    /// `opts.model` and `opts.responders` of `ck.host`/`ck.run` (o = 0: none).
    func options(at o: Int32, _ L: OpaquePointer) throws -> (Value, [ScriptResponder]) {
        var model = Value.nil
        var responders: [ScriptResponder] = []
        if o != 0 { _ = engine.values.unwrapReadOnlyView(at: o, L) }    // opts = props or state
        if o != 0, LuaStack(L).isTable(o) {
            engine.values.rawField(L, o, "model")
            model = engine.values.carriedValue(at: -1, L)
            LuaStack(L).pop(1)
            engine.values.rawField(L, o, "responders")
            let list = LuaStack(L).top
            _ = engine.values.unwrapReadOnlyView(at: list, L)
            if LuaStack(L).isTable(list) {
                try engine.values.forEachItem(ofList: list, L) { i in
                    guard LuaStack(L).isTable(-1) else {
                        throw RuntimeError(.badArgument, "ck.host: opts.responders[\(i)] must be a table {name = ..., methods = {...}}")
                    }
                    // Its own wrapper: the table may be another host's responder too, and each
                    // host's chain is its own list (a shared wrapper's `next` was the last host's).
                    responders.append(scriptResponder(at: LuaStack(L).top, L, reusing: false))
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
        if let cls = engine.objects.object(at: p, L) as? ComponentClass {
            return { [unowned engine] model in
                let L = engine.runningThread
                engine.values.push(model, L)
                defer { LuaStack(L).pop(1) }
                return try engine.classes.construct(cls, propsAt: LuaStack(L).top, L)
            }
        }
        if let why = LuaStack(L).whyNotCallable(p) {
            throw RuntimeError(.badArgument, "\(Remedy.providerArgument) must be a function (or a table with __call) or a component class, got \(engine.values.value(at: p, L).typeName)\(why)")
        }
        let f = engine.values.callableReference(at: p, L)
        return { [unowned engine] model in
            let v = try engine.values.callForValue(f, model)
            if let returned = ClassBridge.component(returned: v) { return returned }
            let at = engine.definition(of: f).map { " (defined at \($0))" } ?? ""
            throw RuntimeError(.badReturn, "the host's provider\(at) returned \(Engine.withArticle(v.typeName)); return one component built with Class(props), or nil\(ClassBridge.severalChildrenHint(v))")
        }
    }

    /// A responder table: `{name = "ViewController", methods = {...}}`, or any table with methods.
    /// `reusing`: a table some host lists is that host's responder (the first host's, when several
    /// list it), so an action targeting it walks on along that host's responders.
    func scriptResponder(at index: Int32, _ L: OpaquePointer, reusing: Bool = true) -> ScriptResponder {
        let index = LuaStack(L).absolute(index)
        let identity = LuaStack(L).identity(index)
        if reusing, let r = engine.runtime.hostResponder(forTable: identity) { return r }
        engine.values.rawField(L, index, "name")
        let name = engine.lua.string(at: -1, on: L) ?? "table"
        LuaStack(L).pop(1)
        let table = engine.values.reference(at: index, L, .table)
        return ScriptResponder(name: name, table: .table(table), lookup: { [unowned engine] sel in
            engine.hosts.responderMethod(table, sel)
        }, canPerformAction: { [unowned engine] sel, sender in
            try engine.hosts.responderClaim(table, sel, sender)
        })
    }

    /// The table's `canPerformAction(self, selector, sender)`, looked up as its methods are (the
    /// table may change): its answer, or nil when it has none (SPEC §6.1 asks every responder).
    fileprivate func responderClaim(_ table: LuaRef, _ selector: String, _ sender: Responder?) throws -> Bool? {
        guard let f = responderMethod(table, "canPerformAction")?.script as? LuaRef else { return nil }
        return try engine.classes.predicate(f)(.table(table), selector, sender)
    }

    fileprivate func responderMethod(_ table: LuaRef, _ selector: String) -> Method? {
        let L = engine.runningThread
        let base = LuaStack(L).top
        defer { LuaStack(L).top = base }
        table.push(L)
        if engine.values.rawField(L, -1, "methods") == .table, let m = responderMethod(selector, at: engine.values.rawField(L, -1, selector), L) { return m }
        LuaStack(L).top = base + 1
        let own = engine.values.rawField(L, -1, selector)
        if own != .nil { return responderMethod(selector, at: own, L) }
        LuaStack(L).top = base + 1
        return inheritedMethod(selector, L)
    }

    /// A method the table on top inherits through `__index` tables (`Class.__index = Class`,
    /// `setmetatable(Derived, {__index = Base})`), as `table.selector` finds it in Lua (SPEC §6.1:
    /// the responder "has a method"). Read raw, level by level, up to `inheritanceDepth` levels
    /// (a cycle ends there): no metamethod runs. An `__index` function is not called to find a
    /// handler: computed methods answer through `canPerformAction`.
    private func inheritedMethod(_ selector: String, _ L: OpaquePointer) -> Method? {
        let stack = LuaStack(L)
        for _ in 0..<Self.inheritanceDepth {
            guard stack.reserve(3), stack.pushIndexTable(of: -1) else { return nil }
            stack.remove(at: -2)
            // The first level that has the field decides, as `table.selector` does in Lua.
            let type = engine.values.rawField(L, -1, selector)
            if type != .nil { return responderMethod(selector, at: type, L) }
            stack.pop(1)
        }
        return nil
    }

    static let inheritanceDepth = 100

    /// The method on top of the stack (of type `type`): a function, or a spy or stub replacing one
    /// (a callable table, given every argument).
    private func responderMethod(_ selector: String, at type: LuaType, _ L: OpaquePointer) -> Method? {
        if type == .function { return engine.values.method(at: -1, name: selector, hasSelf: true, L) }
        guard LuaStack(L).isCallableTable(-1) else { return nil }
        return engine.values.callableMethod(at: -1, name: selector, L)
    }
}
