import CKCore

/// The special keys of class definitions, one function each (the table is
/// `ClassConfigurator.specialKeys`). Each gets the value's stack index; nil clears the setting.
/// A class's closures capture the engine unowned(unsafe): only the engine's runtime builds, so
/// they never run after it; a checked unowned capture costs an atomic per render.
enum ClassKeys {
    static func render(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!
        guard !c.stack.isNil(i) else { cls.render = nil; cls.renderDefinition = nil; return }
        let f = try c.function(i, "render")
        cls.renderDefinition = c.stack.isFunction(i) ? c.engine.definition(of: f) : nil
        cls.render = { [unowned(unsafe) engine = c.engine] comp in try engine.classes.callRender(f, comp, what: "render of \(comp.shownName)") }
    }

    static func view(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!, engine = c.engine
        cls.hasViewFunction = false
        cls.viewDefinition = nil
        if c.stack.isNil(i) {
            cls.view = nil
        } else if let f = c.callable(i) {
            let definedAt = (c.stack.isFunction(i) ? engine.definition(of: f) : nil) ?? SwiftCall.location(on: c.L, level: 1)
            cls.hasViewFunction = true
            cls.viewDefinition = definedAt
            var lastClass: ReusedName?
            cls.view = { [unowned(unsafe) engine] comp in
                try engine.values.callWithProps(f, receiver: comp, props: comp, state: comp.state) { at, L in
                    try engine.hosts.viewSpec(at: at, L, in: comp.shownName, definedAt: definedAt, lastClass: &lastClass)
                }
            }
        } else if c.stack.isTable(i) {
            // A view spec table is read once, at the first render: every instance shares it.
            let spec = engine.values.value(at: i, c.L)
            let definedAt = SwiftCall.location(on: c.L, level: 1)
            cls.viewDefinition = definedAt
            var read: ViewSpec??
            cls.view = { [unowned(unsafe) engine] comp in
                if let read { return read }
                let made = try engine.hosts.viewSpec(spec, in: comp.shownName, definedAt: definedAt)
                read = .some(made)
                return made
            }
        } else {
            throw c.bad("view", "a view spec table or a function")
        }
    }

    static func scope(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!, engine = c.engine
        // What `Class(props)` runs in C depends on it (see setScopeFunction).
        defer { engine.classes.refreshClassCall(cls, c.L) }
        if let f = c.callable(i) {
            cls.scope = .computed { [unowned(unsafe) engine] comp in try engine.values.callWithProps(f, props: comp) }
            // C calls only a function (ckclass.c); Swift calls a spy.
            cls.scriptScopeFunction = c.stack.isFunction(i) ? f : nil
        } else {
            cls.scope = c.stack.toBool(i) ? .anonymous : .none
            cls.scriptScopeFunction = nil
        }
    }

    static func initialState(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!, engine = c.engine
        if c.stack.isNil(i) {
            cls.initialState = nil
        } else if let f = c.callable(i) {
            // The state is kept: a long string stays the Lua string (see carriedValue).
            cls.initialState = { [unowned(unsafe) engine] comp in
                try engine.values.callForValue(f, carrying: true) { L in engine.values.pushProps(of: comp, L); return 1 }
            }
        } else {
            // Each scope gets its own reference to a table, function or long string, in its
            // host's arena: the class's may go first.
            let v = engine.values.carriedValue(at: i, c.L)
            switch v {
            case .table, .function, .opaque: cls.initialState = { [unowned(unsafe) engine] _ in engine.values.rehomed(v) }
            default: cls.initialState = { _ in v }
            }
        }
    }

    static func controller(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!
        cls.controllerNameSite = SwiftCall.location(on: c.L, level: 1)
        if c.stack.isNil(i) {
            cls.controllerName = nil
        } else if let k = c.engine.objects.object(at: i, c.L) as? ControllerClass {
            cls.controllerName = k.name
        } else if let n = c.engine.lua.name(at: i, on: c.L) {
            cls.controllerName = n
        } else {
            throw c.bad("controller", "a controller class or its name (UTF-8 text without NUL bytes)")
        }
    }

    static func pure(_ c: ClassConfigurator, _ i: Int32) throws {
        c.component!.isPure = c.stack.toBool(i)
    }

    static func actions(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!
        defer { c.engine.classes.refreshClassCall(cls, c.L) }
        guard !c.stack.isNil(i) else { cls.actionProps = []; return }
        guard c.stack.isTable(i) else { throw c.bad("actions", "a table of prop = {types}") }
        var props: [(String, [TypeSpec])] = []
        c.stack.pushNil()
        while c.stack.next(i) {
            defer { c.stack.pop() }
            try c.engine.runtime.limits.tick()
            // A field of `def`, argument #2 (`argument #2 (def.actions.onTap[2])`).
            let args = Arguments(L: c.L, engine: c.engine, function: c.definer)
            guard let name = try args.key(at: -2, in: "\(c.definer): def.actions") else {
                // Read without converting the key in place (a `next` walk is under way).
                let shownKey = c.stack.isInteger(-2) ? String(c.stack.integer(-2))
                    : c.stack.type(-2) == .number ? NumberText.text(c.stack.number(-2)) : Article.with(c.stack.typeName(-2))
                throw RuntimeError(.badArgument, "\(c.definer): def.actions has an entry at key \(shownKey); name each action prop, as props give it: actions = {onTap = {\"Event\"}}")
            }
            props.append((name, try args.types(c.stack.top, "def.actions.\(name)", position: 2)))
        }
        cls.actionProps = props.sorted { $0.0 < $1.0 }.map { (name: $0.0, types: $0.1) }
    }

    static func shouldUpdate(_ c: ClassConfigurator, _ i: Int32) throws {
        let cls = c.component!
        guard !c.stack.isNil(i) else { cls.shouldUpdate = nil; return }
        let f = try c.function(i, "shouldUpdate")
        cls.shouldUpdate = { [unowned(unsafe) engine = c.engine] old, new in
            let r = try engine.values.callWithProps(f, receiver: new, props: old, then: new)
            if case .bool(let b) = r { return b }
            return !r.isNil
        }
    }

    /// Components and controllers alike: nil clears the predicate.
    static func canPerformAction(_ c: ClassConfigurator, _ i: Int32) throws {
        guard !c.stack.isNil(i) else {
            c.component?.canPerformAction = nil
            c.controller?.canPerformAction = nil
            return
        }
        let claim = c.engine.classes.predicate(try c.function(i, "canPerformAction"))
        c.component?.canPerformAction = { comp, sel, sender in try claim(.object(comp), sel, sender) }
        c.controller?.canPerformAction = { k, sel, sender in try claim(.object(k), sel, sender) }
    }
}
