import CKCore

/// Component and controller classes on the Lua side: a class made from its definition table,
/// its field table (`Class.key`), the class call `Class(props)` runs in C, and the closures the
/// core calls (render, predicates). Construction is in ClassConstruction.swift; the keys of a
/// definition are `ClassConfigurator`'s.
struct ClassBridge {
    // Strong: a bridge lives for one call (`engine.classes`), so this is one retain per call
    // where an unowned(unsafe) field costs a retain and a release at every read. (`Class(props)`
    // from Lua makes no bridge: its bindings borrow the engine, ClassConstruction.swift.)
    let engine: Engine

    /// Builds a class from `def`: special keys configure it, functions become methods.
    func defineComponent(_ name: String, defAt def: Int32, _ L: OpaquePointer) throws -> ComponentClass {
        let cls = ComponentClass(name: name)
        engine.componentClassesDefined += 1
        // The class keeps its table and what its definition gave in an arena of its own
        // (Ownership.swift): a redefined class, and what its closures captured, goes with it.
        try engine.ownership.defining(cls) { _ in
            LuaStack(L).newTable(array: 0, fields: 8)
            cls.scriptTable = engine.values.reference(at: -1, L, .table)
            LuaStack(L).pop(1)
            // A class's closures capture the engine unowned(unsafe): only the engine's runtime builds,
            // so they never run after it; a checked unowned capture costs an atomic per render.
            cls.readProp = { [unowned(unsafe) engine] c, key in engine.classes.prop(c, key) }
            try configurator(for: cls, L).define(from: def)
        }
        if engine.runtime.componentClasses[name] == nil { engine.keepForGood(name) }
        engine.ownership.register(cls)
        return cls
    }

    func configurator(for cls: ComponentClass, _ L: OpaquePointer) -> ClassConfigurator {
        ClassConfigurator(engine: engine, L: L, component: cls, controller: nil)
    }

    func configurator(for cls: ControllerClass, _ L: OpaquePointer) -> ClassConfigurator {
        ClassConfigurator(engine: engine, L: L, component: nil, controller: cls)
    }

    /// The script table of a component or controller class.
    static func table(of cls: RuntimeObject) -> LuaRef? {
        switch cls {
        case let c as ComponentClass: c.scriptTable as? LuaRef
        case let c as ControllerClass: c.scriptTable as? LuaRef
        default: nil
        }
    }

    /// Keeps `Class.key = value` readable from Lua (the class's field table).
    func storeField(_ cls: RuntimeObject, _ key: String, valueAt index: Int32, _ L: OpaquePointer) {
        guard let table = Self.table(of: cls) else { return }
        table.push(L)
        LuaStack(L).pushValue(at: index)
        LuaStack(L).setField(key, of: -2)
        LuaStack(L).pop(1)
    }

    /// Pushes `Class.key` (raw), or nil.
    func pushField(_ cls: RuntimeObject, _ key: String, _ L: OpaquePointer) {
        guard let table = Self.table(of: cls) else { LuaStack(L).pushNil(); return }
        table.push(L)
        engine.values.pushString(key, L)
        LuaStack(L).get(from: -2)
        LuaStack(L).remove(at: -2)
    }

    /// Gives a class handle its scope function (or none), for `Class(props)` to run in C. Not
    /// for a class with typed action props: its scope function must see the props after their
    /// actions are promoted, which Swift does, so Swift calls it.
    static func setScopeFunction(of cls: ComponentClass, onHandleAt index: Int32, _ L: OpaquePointer, objects: ObjectRegistry) {
        let index = LuaStack(L).absolute(index)
        if cls.actionProps.isEmpty, let f = cls.scriptScopeFunction as? LuaRef { f.push(L) } else { LuaStack(L).pushNil() }
        objects.setUserValue(of: index, L)
        objects.setKeepsInstances(of: index, Self.keepsInstancesByKey(cls), L)
    }

    /// Whether `Class(props)` asks C for the instance last made for the key first (ckclass.c):
    /// what `Runtime.keepRecorded` can keep (checked again there; this only spares the others).
    static func keepsInstancesByKey(_ cls: ComponentClass) -> Bool {
        guard cls.isPure, cls.shouldUpdate == nil, cls.builtin == nil, cls.actionProps.isEmpty,
              case .anonymous = cls.scope else { return false }
        return true
    }

    /// After the class's scope or action props changed: its live handle, if any, follows.
    func refreshClassCall(_ cls: ComponentClass, _ L: OpaquePointer) {
        guard cls.bridgeSlot != 0 else { return }
        engine.values.push(cls, L)
        Self.setScopeFunction(of: cls, onHandleAt: -1, L, objects: engine.objects)
        LuaStack(L).pop(1)
    }

    /// A script predicate `(self, selector, sender) -> truthy` as a Swift closure.
    func predicate(_ f: LuaRef) -> (Value, String, Responder?) throws -> Bool {
        { [unowned engine] receiver, selector, sender in
            let r = try engine.values.callForValue(f, receiver, .string(selector), sender?.value ?? .nil)
            if case .bool(let b) = r { return b }
            return !r.isNil
        }
    }

    /// Calls a render-like function `(self, props, state)`; it must return a component, or nil
    /// or false (`return open and Panel{}`, skipped as a `false` child of a list is).
    func callRender(_ f: LuaRef, _ c: Component, what: @autoclosure () -> String) throws -> Component? {
        let v = try engine.values.callWithProps(f, receiver: c, props: c, state: c.state)
        if let returned = Self.component(returned: v) { return returned }
        let at = engine.definition(of: f).map { " (defined at \($0))" } ?? ""
        throw RuntimeError(.badReturn, "\(what())\(at) returned \(Engine.withArticle(v.typeName)) at \(c.shownPath); return one component built with Class(props), or nil\(Self.severalChildrenHint(v))")
    }

    /// What a render or a provider returned, as its child: nil and false are none (`cond and
    /// X{}`, as in a children list, SPEC §5); nil (not `.some(nil)`) for anything else.
    static func component(returned v: Value) -> Component?? {
        switch v {
        case .nil, .bool(false): return .some(nil)
        case .object(let o as Component): return o
        default: return nil
        }
    }

    /// After `[badReturn]` for a table: how to return several children.
    static func severalChildrenHint(_ v: Value) -> String {
        v.typeName == "table" ? " (for several children, return ck.Stack{children = {…}})" : ""
    }

    /// `{"int", "string"}`: types as a script writes them.
    static func describeTypes(_ types: [TypeSpec]) -> String { "{" + types.map { "\"\(Excerpt.text($0.description))\"" }.joined(separator: ", ") + "}" }
}
