import CKCore

/// Component instances: `c.props`, `c.state`, `c.class`, `c.name`, `c.key`, `c.scope`,
/// `c:updateState(fnOrValue, mode)`, `c:action(sel, types)` and the class's methods. Immutable.
enum ComponentBinding {
    typealias Method = (Arguments, Component) throws -> Int32

    /// Methods of components (the class's own methods are found by `index`).
    static var methods: [(String, Method)] {
        [("updateState", updateState), ("action", action)]
    }

    static func register(in engine: Engine) {
        var ids: [String: Int32] = [:]
        for (name, body) in methods {
            ids[name] = engine.functions.registerFunction("component:\(name)") { args in
                let c: Component = try args.object(1, "self", "a component (call it as c:\(name)(...))")
                args.engine.values.refindArena(of: c.props, heldByHandleAt: 1, kind: .component, args.L)
                return try body(args, c)
            }
        }
        let reactCalls = ReactNames.register(in: engine, onController: false)
        engine.functions.defineMetatable(.component, methods: ids, index: { args, key in try index(args, key, methods: ids, reactCalls: reactCalls) },
                               newindex: newindex, tostring: tostring)
    }

    /// `c:updateState(fnOrValue, mode)`: queues a state update for `c`'s scope.
    static func updateState(_ args: Arguments, _ c: Component) throws -> Int32 {
        guard let scope = c.scope else {
            throw RuntimeError(.noScope, "\(c.shownName):updateState: \(c.shownName) declares no scope; add scope = true to its class")
        }
        guard let host = scope.host, !host.isDestroyed else {
            if scope.hostWasDestroyed {
                throw RuntimeError(.hostDestroyed, "\(c.shownName):updateState on \(c.shownPath), a component of a host the script "
                    + "destroyed (host:destroy()): a destroyed host builds nothing more; \(Remedy.makeANewHost) and update "
                    + "its components")
            }
            throw RuntimeError(.deadObject, "\(c.shownName):updateState on \(c.shownPath): its host was collected: nothing referred "
                + "to it any more (a host is kept only while the script holds it or it is mounted); keep it in a variable as "
                + "long as you use its components, \(Remedy.keepTheHost)")
        }
        let synchronous = args.isString(3, "sync")
        if !synchronous, !args.isString(3, "async") {
            let mode = try args.optionalString(3, "mode") ?? "async"
            guard mode == "sync" || mode == "async" else { throw args.bad(3, "mode", "\"sync\" or \"async\"") }
        }
        // The update lives with the host (its arena): a state may name the host or its tree.
        // Borrowed: `e.values` of an owned engine costs a retain a read (this is the update path).
        let update: StateUpdate = args.withEngine { e in
            e.hosts.owned(by: host) {
                // A callable table is an update function, as it is an initialState function.
                guard LuaStack(args.L).isCallable(2) else { return .value(e.values.carriedValue(at: 2, args.L)) }
                let f = e.values.callableReference(at: 2, args.L)
                // The previous state as the read-only view Lua sees everywhere (SPEC §3): an update
                // function that changed it in place and returned it survived its build's rollback.
                let cls = c.componentClass
                return .transform { [unowned(unsafe) e, weak scope] old in
                    let new = try e.values.callForValue(f, carrying: true) { L in e.values.pushState(old, of: cls, L); return 1 }
                    if new.isNil, isTable(old) { warnNilUpdate(f, of: scope?.component?.shownPath ?? cls.shownName, e) }
                    return new
                }
            }
        }
        try host.enqueue(update, for: scope, synchronous: synchronous)
        if !scope.isLive { args.withEngine { e in warnUpdateAfterUnmount(c, e, args.L) } }
        return 0
    }

    /// `[updateAfterUnmount]`, once per line that calls it: an update for a scope that left the
    /// tree is dropped (SPEC §3), and a timer or callback that outlived its component (React's
    /// "state update on an unmounted component") would drop them without a word for ever
    /// (attack atk-apps 06).
    private static func warnUpdateAfterUnmount(_ c: Component, _ e: Engine, _ L: OpaquePointer) {
        let site = SwiftCall.location(on: L, level: 1)
        let key = "updateAfterUnmount \(site ?? c.shownName)"
        guard e.warnedOnce.insert(key).inserted else { return }
        e.keepForGood(key)
        e.warn(Catalogue.updateAfterUnmount.message("\(c.shownName):updateState on \(c.shownPath), whose scope has left the tree: the update is dropped, as every later one from this line will be (warned once). Something that outlived the component still runs (a ck.after timer, a callback): cancel it in the controller's invalidateController (ck.cancel(id)) or willUnmount", at: site))
    }

    /// A table state, or the read-only view of one an update function returned (`return old`
    /// keeps the view itself: atk-stale 12, no warning after it).
    private static func isTable(_ state: Value) -> Bool {
        switch state {
        case .table: true
        case .opaque(let r): (r as? LuaRef)?.type == .userdata
        default: false
        }
    }

    /// `[suspiciousUpdate]`: an update function returned nil for a table state. The state is nil
    /// now (SPEC §3: `fn(old) -> new`, as ComponentKit's); a React or Roact habit, `return nil`
    /// to skip an update, would otherwise lose the state without a word (attack atk-mem 13).
    private static func warnNilUpdate(_ f: LuaRef, of place: String, _ e: Engine) {
        e.warn(Catalogue.suspiciousUpdate.message("an update function of \(place) returned nil, so its state, a table before, is nil now: an update sets the state to what its function returns (ComponentKit's fn(old) -> new); it does not skip the update as React's and Roact's setState do. Return old to keep the state (the scope still re-renders), or pass nil as a value (updateState(nil)) to clear it on purpose", at: e.definition(of: f)))
    }

    /// `c:action(selector, types)`: a scope action targeting `c`'s scope.
    static func action(_ args: Arguments, _ c: Component) throws -> Int32 {
        let selector = try args.string(2, "selector")
        args.engine.values.push(try args.engine.runtime.scopeAction(c, selector, types: try args.types(3)), args.L)
        return 1
    }

    /// The runtime's fields, then the class's (C's `__index` answers the methods first), then
    /// for a React method name the class does not define (`setState`), a function raising `[reactName]`.
    static func index(_ args: Arguments, _ key: String, methods: [String: Int32], reactCalls: ReactNames.Calls) throws -> Int32 {
        let c: Component = try args.object(1, "self", "a component")
        let e = args.engine, L = args.L
        switch key {
        case "props":
            e.values.refindArena(of: c.props, heldByHandleAt: 1, kind: .component, L)
            e.values.pushProps(of: c, L)
        case "state":
            e.values.refindArena(of: c.state, heldByHandleAt: 1, kind: .component, L)
            e.values.pushState(c.state, of: c.componentClass, L)
        case "class": e.values.push(c.componentClass, L)
        case "name": e.values.pushString(c.name, L)
        case "key": e.values.push(c.key, L)
        case "scope": e.values.push(c.scope)
        case "generation": LuaStack(L).push(c.generation)
        case "path": e.values.pushString(c.path, L)
        case "view": e.values.push(c.isMounted ? c.view : nil)
        case "isMounted": LuaStack(L).push(c.isMounted)
        case "updateState", "action": SwiftFunctions.pushFunction(methods[key]!, L)
        default:
            e.classes.pushField(c.componentClass, key, L)
            if LuaStack(L).isNil(-1), let id = reactCalls[key] {
                LuaStack(L).pop(1)
                SwiftFunctions.pushFunction(id, L)
            }
        }
        return 1
    }

    static func newindex(_ args: Arguments, _ key: String) throws -> Int32 {
        let c: Component = try args.object(1, "self", "a component")
        // Where the script wrote, also through the table library (`table.insert(c, x)`: C at level 1).
        throw RuntimeError(.immutableComponent, "cannot set \(Excerpt.text(key)) on \(c.label): components are immutable snapshots; keep data in props or state and call updateState",
                           at: args.engine.currentScriptLocation())
    }

    static func tostring(_ args: Arguments) throws -> String {
        let c: Component = try args.object(1, "self", "a component")
        return "<\(c.label) gen \(c.generation)>"
    }
}
