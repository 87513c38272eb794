import CKCore

/// `ck.component(name, def)` and component class objects: `Class(props)`, `function Class:m() end`.
enum ComponentClassBinding {
    static func register(in engine: Engine) {
        engine.defineMetatable(.componentClass, index: classField, newindex: setClassField, tostring: { args in
            let cls: ComponentClass = try args.object(1, "class", "a component class")
            return "<component class \(cls.name)>"
        }, extra: registerClassCall(in:))
        engine.setFunctions([("component", component)], prefix: "ck.")
    }

    /// `ck.component(name, def)`.
    static func component(_ args: Arguments) throws -> Int32 {
        let name = try args.string(1, "name")
        if !args.isNil(2) { try args.table(2, "def") }
        let cls = try args.engine.defineComponentClass(name, defAt: 2, args.L)
        args.engine.push(cls, args.L)
        return 1
    }

    static func classField(_ args: Arguments, _ key: String) throws -> Int32 {
        let cls: ComponentClass = try args.object(1, "class", "a component class")
        if key == "name" { args.engine.pushString(cls.name, args.L) } else { args.engine.pushClassField(cls, key, args.L) }
        return 1
    }

    /// `Class.key = value`: configures the class as its definition would.
    static func setClassField(_ args: Arguments, _ key: String) throws -> Int32 {
        let cls: ComponentClass = try args.object(1, "class", "a component class")
        try args.engine.withHome(.arena(args.engine.arena(ofClass: cls)!)) {
            try args.engine.configurator(for: cls, args.L).set(key, valueAt: 3)
        }
        return 0
    }

    /// `__call` of the class metatable (on top of the stack): C runs a class's scope function
    /// (ckclass.c), then one of these Swift functions.
    static func registerClassCall(in engine: Engine) {
        let plain = engine.registerFunction("Class(props)", constructPlain)
        let checked = engine.registerFunction("Class(props)", constructChecked)
        let computed = engine.registerFunction("Class(props)", constructComputed)
        engine.objects.pushClassCall(metatableAt: -1, plain: plain, checked: checked, computed: computed,
                                     state: engine.runtime.callState, engine.runningThread)
        LuaStack(engine.runningThread).setField("__call", of: -2)
    }

    static func constructPlain(_ args: Arguments) throws -> Int32 {
        let cls: ComponentClass = try args.object(1, "class", "a component class")
        _ = try args.engine.construct(cls, propsAt: 2, args.L, pushing: true)
        return 1
    }

    /// The class's handle was checked in C.
    static func constructChecked(_ args: Arguments) throws -> Int32 {
        _ = try args.engine.construct(try checkedClass(args), propsAt: 2, args.L, pushing: true)
        return 1
    }

    /// C ran the class's scope function: the key as given is at 4, what it returned at 5.
    static func constructComputed(_ args: Arguments) throws -> Int32 {
        _ = try args.engine.construct(try checkedClass(args), propsAt: 2, args.L, computed: (key: 4, identifier: 5), pushing: true)
        return 1
    }

    private static func checkedClass(_ args: Arguments) throws -> ComponentClass {
        try args.engine.objects.object(inCheckedHandleAt: 1, args.L) as? ComponentClass
            ?? args.object(1, "class", "a component class")
    }
}

extension Engine {
    /// Builds a class from `def`: special keys configure it, functions become methods.
    func defineComponentClass(_ name: String, defAt def: Int32, _ L: OpaquePointer) throws -> ComponentClass {
        let cls = ComponentClass(name: name)
        componentClassesDefined += 1
        // The class keeps its table and what its definition gave in an arena of its own
        // (Ownership.swift): a redefined class, and what its closures captured, goes with it.
        try defining(cls) { _ in
            LuaStack(L).newTable(array: 0, fields: 8)
            cls.scriptTable = reference(at: -1, L, .table)
            LuaStack(L).pop(1)
            // A class's closures capture the engine unowned(unsafe): only the engine's runtime builds,
            // so they never run after it; a checked unowned capture costs an atomic per render.
            cls.readProp = { [unowned(unsafe) self] c, key in self.prop(c, key) }
            try configurator(for: cls, L).define(from: def)
        }
        if runtime.componentClasses[name] == nil { keepForGood(name) }
        register(cls)
        return cls
    }

    /// Keeps `Class.key = value` readable from Lua (the class's field table).
    func storeClassField(_ cls: RuntimeObject, _ key: String, valueAt index: Int32, _ L: OpaquePointer) {
        guard let table = classTable(of: cls) else { return }
        table.push(L)
        LuaStack(L).pushValue(at: index)
        LuaStack(L).setField(key, of: -2)
        LuaStack(L).pop(1)
    }

    /// A script predicate `(self, selector, sender) -> truthy` as a Swift closure.
    func predicate(_ f: LuaRef) -> (Value, String, Responder?) throws -> Bool {
        { [unowned self] receiver, selector, sender in
            let r = try self.callForValue(f, receiver, .string(selector), sender?.value ?? .nil)
            if case .bool(let b) = r { return b }
            return !r.isNil
        }
    }

    /// The script table of a component or controller class.
    func classTable(of cls: RuntimeObject) -> LuaRef? {
        switch cls {
        case let c as ComponentClass: c.scriptTable as? LuaRef
        case let c as ControllerClass: c.scriptTable as? LuaRef
        default: nil
        }
    }

    func pushClassField(_ cls: RuntimeObject, _ key: String, _ L: OpaquePointer) {
        guard let table = classTable(of: cls) else { LuaStack(L).pushNil(); return }
        table.push(L)
        pushString(key, L)
        LuaStack(L).get(from: -2)
        LuaStack(L).remove(at: -2)
    }

    /// After `[badReturn]` for a table: how to return several children.
    static func severalChildrenHint(_ v: Value) -> String {
        v.typeName == "table" ? " (for several children, return ck.Stack{children = {…}})" : ""
    }

    /// Calls a render-like function `(self, props, state)`; it must return a component or nil.
    func callRender(_ f: LuaRef, _ c: Component, what: @autoclosure () -> String) throws -> Component? {
        let v = try callWithProps(f, receiver: c, props: c, state: c.state)
        switch v {
        case .nil: return nil
        case .object(let o as Component): return o
        default:
            let at = definition(of: f).map { " (defined at \($0))" } ?? ""
            throw RuntimeError(.badReturn, "\(what())\(at) returned \(Engine.withArticle(v.typeName)) at \(c.path); return one component built with Class(props), or nil\(Self.severalChildrenHint(v))")
        }
    }

    /// Gives a class handle its scope function (or none), for `Class(props)` to run in C. Not
    /// for a class with typed action props: its scope function must see the props after their
    /// actions are promoted, which Swift does, so Swift calls it.
    func setScopeFunction(of cls: ComponentClass, onHandleAt index: Int32, _ L: OpaquePointer) {
        let index = LuaStack(L).absolute(index)
        if cls.actionProps.isEmpty, let f = cls.scriptScopeFunction as? LuaRef { f.push(L) } else { LuaStack(L).pushNil() }
        objects.setUserValue(of: index, L)
    }

    /// After the class's scope or action props changed: its live handle, if any, follows.
    func refreshClassCall(_ cls: ComponentClass, _ L: OpaquePointer) {
        guard cls.bridgeSlot != 0 else { return }
        push(cls, L)
        setScopeFunction(of: cls, onHandleAt: -1, L)
        LuaStack(L).pop(1)
    }

    /// `Class(props)`: checks typed action props (promoting them), then constructs; `pushing`:
    /// leaves the component's handle on top. `computed`: where the key as given and what the
    /// class's scope function returned are on the stack, if C has already run it. Its values
    /// live where `beginConstruction` says (Ownership.swift).
    func construct(_ cls: ComponentClass, propsAt index: Int32, _ L: OpaquePointer,
                   computed: (key: Int32, identifier: Int32)? = nil, pushing: Bool = false) throws -> Component {
        var fromView = false
        if LuaStack(L).isTable(index) || isPropsView(at: index, L) {
            LuaStack(L).pushValue(at: index)
            fromView = unwrapPropsView(at: -1, L)
        } else if LuaStack(L).isNil(index) {
            LuaStack(L).newTable(array: 0, fields: 0)
        } else {
            throw RuntimeError(.badArgument, "\(cls.name)(props): props must be a table or nil, got \(LuaStack(L).typeName(index))")
        }
        let t = LuaStack(L).top
        var pushed = false
        defer { if !pushed { LuaStack(L).top = t - 1 } }
        let copied = try promoteActionProps(of: cls, at: t, L)
        let given = try cls.builtin.flatMap { try ChildLists(engine: self, L: L).atConstruction(of: $0, propsAt: t) }
        if let builtin = cls.builtin, !builtin.made.layout.isEmpty { try checkLayout(of: builtin, propsAt: t, L) }
        let c = beginConstruction(props: t, of: cls, L)
        let key: Value
        if let computed { key = value(at: computed.key, L, in: c.arena) } else {
            LuaStack(L).key(of: t)
            key = value(at: -1, L, in: c.arena)
            LuaStack(L).pop(1)
        }
        let built = try runtime.construct(cls, props: .table(c.props), key: key,
                                          identifier: computed.map { value(at: $0.identifier, L, in: c.arena) })
        if let given { built.giveChildren(given) }
        if fromView, !copied { adoptPropsView(at: index, by: built, L) }
        finish(c, of: built, pushingTo: pushing ? t : nil, L)
        pushed = pushing
        if let known = cls.knownProps { NameCheck.props(of: built, known: known, engine: self, L: L) }
        return built
    }

    /// A built-in's layout props (`ck.Stack{direction = …}`) in the props table at `t`, checked
    /// where they are given (`[badArgument]` with the line of the call).
    private func checkLayout(of builtin: Builtin, propsAt t: Int32, _ L: OpaquePointer) throws {
        _ = try StackLayout(of: builtin.name) { name in
            rawField(L, t, name)
            defer { LuaStack(L).pop(1) }
            return value(at: -1, L)
        }
    }

    /// Checks the typed action props in the props table at `t`, promoting them; true if that
    /// replaced the table by a copy.
    private func promoteActionProps(of cls: ComponentClass, at t: Int32, _ L: OpaquePointer) throws -> Bool {
        var copied = false
        for (name, declared) in cls.actionProps {
            rawField(L, t, name)
            defer { LuaStack(L).pop(1) }
            if LuaStack(L).isNil(-1) { continue }
            guard let action = objects.object(at: -1, L) as? Action else {
                throw RuntimeError(.typeMismatch, "\(cls.name).\(name) is an action prop typed \(describeTypes(declared)) but was given a \(value(at: -1, L).typeName); pass ck.action(...) or nil")
            }
            let promoted = try runtime.conformActionProp(action, declared: declared, prop: name, component: cls.name)
            if promoted !== action {
                if !copied { try copyTable(at: t, L); copied = true }
                push(promoted, L)
                LuaStack(L).setField(name, of: t)
            }
        }
        return copied
    }

    /// Replaces the table at `index` by a shallow copy (raw).
    private func copyTable(at index: Int32, _ L: OpaquePointer) throws {
        LuaStack(L).newTable(array: 0, fields: 8)
        LuaStack(L).pushNil()
        while LuaStack(L).next(index) {
            try runtime.limits.tick()
            LuaStack(L).pushValue(at: -2)
            LuaStack(L).insert(at: -2)
            LuaStack(L).set(into: -4)
        }
        LuaStack(L).replace(at: index)
    }

    func describeTypes(_ types: [TypeSpec]) -> String { "{" + types.map { "\"\($0)\"" }.joined(separator: ", ") + "}" }

    /// Reads `props[key]` raw.
    func prop(_ c: Component, _ key: String) -> Value {
        guard case .table(let ref) = c.props else { return .nil }
        return scriptTables.field(ref, key)
    }
}
