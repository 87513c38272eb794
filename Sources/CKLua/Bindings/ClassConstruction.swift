import CKCore

/// `Class(props)` on the Lua side: the props table checked (typed action props promoted, a
/// built-in's children and layout read) and the component constructed in the arena
/// `beginConstruction` opens (Ownership.swift). On the build's hot path.
extension ClassBridge {
    /// `Class(props)`: checks typed action props (promoting them), then constructs; `pushing`:
    /// leaves the component's handle on top. `computed`: where the key as given and what the
    /// class's scope function returned are on the stack, if C has already run it. Its values
    /// live where `beginConstruction` says (Ownership.swift).
    func construct(_ cls: ComponentClass, propsAt index: Int32, _ L: OpaquePointer,
                   computed: (key: Int32, identifier: Int32)? = nil, pushing: Bool = false) throws -> Component {
        try Self.construct(cls, propsAt: index, L, computed: computed, pushing: pushing, engine: engine)
    }

    /// `construct` for a caller that holds the engine: the class call's bindings borrow it
    /// (`Arguments.withEngine`), where a bridge would retain it (this is the build's hot path).
    static func construct(_ cls: ComponentClass, propsAt index: Int32, _ L: OpaquePointer,
                          computed: (key: Int32, identifier: Int32)? = nil, pushing: Bool = false,
                          engine: Engine) throws -> Component {
        let fromView = try pushProps(of: cls, at: index, L, engine: engine)
        let t = LuaStack(L).top
        var pushed = false
        defer { if !pushed { LuaStack(L).top = t - 1 } }
        let copied = try !cls.actionProps.isEmpty && promoteActionProps(of: cls, at: t, L, engine: engine)
        let given = try cls.builtin.flatMap { try ChildLists(engine: engine, L: L).atConstruction(of: $0, propsAt: t) }
        if let builtin = cls.builtin, !builtin.made.layout.isEmpty || builtin.made.viewClassProp != nil {
            try checkProps(of: builtin, propsAt: t, L, engine: engine)
        }
        let built: Component
        if given == nil, cls.isPure, engine.runtime.mayReuseInstances,
           let reuse = reusable(cls, propsAt: t, computed: computed, L, engine: engine) {
            if let kept = reuse.kept {
                if pushing { pushed = true; engine.values.push(kept, L); LuaStack(L).replace(at: t); LuaStack(L).top = t }
                return kept
            }
            built = try constructNew(cls, propsAt: t, L, pushing: pushing, engine: engine) { _ in (reuse.key, reuse.identifier, reuse.claim) }
        } else {
            built = try constructNew(cls, propsAt: t, L, pushing: pushing, engine: engine) {
                let (key, identifier) = keyAndIdentifier(propsAt: t, computed: computed, in: $0, L, engine: engine)
                return (key, identifier, nil)
            }
        }
        pushed = pushing
        if let given { built.giveChildren(given.components, slots: given.slots) }
        if fromView, !copied { engine.values.adoptPropsView(at: index, by: built, L) }
        if let known = cls.knownProps { NameCheck.props(of: built, known: known, engine: engine, L: L) }
        return built
    }

    /// Pushes the props `Class(props)` was given (a table, a view's table, or a new empty
    /// table for nil); true if they came from a props view.
    @inline(__always)
    private static func pushProps(of cls: ComponentClass, at index: Int32, _ L: OpaquePointer, engine: Engine) throws -> Bool {
        if LuaStack(L).isTable(index) {
            LuaStack(L).pushValue(at: index)
            return false
        } else if engine.values.isReadOnlyView(at: index, L) {
            LuaStack(L).pushValue(at: index)
            // Only a props view becomes the child's props view (a state view's writes say "state").
            return engine.values.unwrapReadOnlyView(at: -1, L) == .props
        } else if LuaStack(L).isNil(index) {
            LuaStack(L).newTable(array: 0, fields: 0)
            return false
        }
        throw RuntimeError(.badArgument, "\(cls.shownName)(props): props must be a table or nil, got \(LuaStack(L).typeName(index))")
    }

    /// Constructs a new component with the props table at `t`, in the arena `beginConstruction`
    /// opens; `identity` gives its key, identifier and scope claim. `pushing`: its first handle
    /// replaces the props at `t`, where the stack then ends.
    @inline(__always)
    private static func constructNew(_ cls: ComponentClass, propsAt t: Int32, _ L: OpaquePointer, pushing: Bool,
                                     engine: Engine, identity: (Arena) -> (Value, Value?, ScopeClaim?)) throws -> Component {
        let c = engine.ownership.beginConstruction(props: t, of: cls, L)
        let (key, identifier, claim) = identity(c.arena)
        let built = try engine.runtime.construct(cls, props: .table(c.props), key: key, identifier: identifier,
                                                 claim: claim)
        engine.ownership.finish(c, of: built, pushingTo: pushing ? t : nil, L)
        return built
    }

    /// What `reusable` found: the kept instance or the scope it claimed (both nil: the class is
    /// not reused this way), and the key and identifier it read (plain values: no references).
    private struct Reuse {
        let kept: Component?
        let claim: ScopeClaim?
        let key: Value
        let identifier: Value?
    }

    /// `runtime.reusableInstance` for `Class(props)` with its props table at `t`, before the
    /// construction stores anything: a kept instance costs no props reference or handle. Asked
    /// only when the class is pure and the build may keep instances; nil unless the key and
    /// identifier are plain values.
    private static func reusable(_ cls: ComponentClass, propsAt t: Int32, computed: (key: Int32, identifier: Int32)?,
                                 _ L: OpaquePointer, engine: Engine) -> Reuse? {
        let keyAt: Int32
        if let computed { keyAt = computed.key } else { LuaStack(L).key(of: t); keyAt = -1 }
        defer { if computed == nil { LuaStack(L).pop(1) } }
        guard let key = engine.values.plainValue(at: keyAt, L) else { return nil }
        var identifier: Value?
        if let computed { guard let v = engine.values.plainValue(at: computed.identifier, L) else { return nil }; identifier = v }
        let tables = engine.scriptTables!
        let (kept, claim) = engine.runtime.reusableInstance(of: cls, key: key, identifier: identifier) { old in
            guard case .table(let ref) = old else { return false }
            return tables.shallowEqual(ref, toTableAt: t, L)
        }
        return Reuse(kept: kept, claim: claim, key: key, identifier: identifier)
    }

    /// The key as given (`props.key`) and the identifier C computed, if it did, kept in `arena`.
    private static func keyAndIdentifier(propsAt t: Int32, computed: (key: Int32, identifier: Int32)?, in arena: Arena,
                                         _ L: OpaquePointer, engine: Engine) -> (Value, Value?) {
        guard let computed else {
            LuaStack(L).key(of: t)
            defer { LuaStack(L).pop(1) }
            return (engine.values.keyValue(at: -1, L, in: arena), nil)
        }
        return (engine.values.keyValue(at: computed.key, L, in: arena), engine.values.keyValue(at: computed.identifier, L, in: arena))
    }

    /// A built-in's checked props in the props table at `t` (`ck.Stack{direction = …}`, `ck.View`'s
    /// `class`), checked where they are given: `[badArgument]` with the line of the call and the
    /// value given (checked at mount, `ck.View{class = 5}` named no line and no value).
    private static func checkProps(of builtin: Builtin, propsAt t: Int32, _ L: OpaquePointer, engine: Engine) throws {
        let prop = { (name: String) -> Value in
            engine.values.rawField(L, t, name)
            defer { LuaStack(L).pop(1) }
            return engine.values.value(at: -1, L)
        }
        if !builtin.made.layout.isEmpty { _ = try StackLayout(of: builtin.name, prop: prop) }
        if let name = builtin.made.viewClassProp, case let v = prop(name), !Self.isString(v) {
            throw RuntimeError(.badArgument, BuiltinViews.badClass(builtin.name, name, v))
        }
    }

    private static func isString(_ v: Value) -> Bool { if case .string = v { true } else { false } }

    /// Checks the typed action props in the props table at `t`, promoting them; true if that
    /// replaced the table by a copy.
    private static func promoteActionProps(of cls: ComponentClass, at t: Int32, _ L: OpaquePointer,
                                           engine: Engine) throws -> Bool {
        var copied = false
        for (name, declared) in cls.actionProps {
            engine.values.rawField(L, t, name)
            defer { LuaStack(L).pop(1) }
            // nil or false: no action (`action = enabled and ck.action("save")`).
            if LuaStack(L).isNil(-1) || (LuaStack(L).isBoolean(-1) && !LuaStack(L).toBool(-1)) { continue }
            guard let action = engine.objects.object(at: -1, L) as? Action else {
                let given = LuaStack(L).isBoolean(-1) ? "true" : Self.given(at: -1, L, engine: engine)
                throw RuntimeError(.typeMismatch, "\(cls.shownName).\(name) is an action prop typed \(Self.describeTypes(declared)) but was given \(given); pass ck.action(...), or nil or false for none")
            }
            let promoted = try engine.runtime.conformActionProp(action, declared: declared, prop: name, component: cls.shownName)
            if promoted !== action {
                if !copied { try copyTable(at: t, L, engine: engine); copied = true }
                engine.values.push(promoted, L)
                LuaStack(L).setField(name, of: t)
            }
        }
        return copied
    }

    /// A value given where an action was expected: `an integer (5)`, `a string ("x")`, `a table`.
    private static func given(at i: Int32, _ L: OpaquePointer, engine: Engine) -> String {
        let typed = Article.with(engine.values.value(at: i, L).typeName)
        switch LuaStack(L).type(i) {
        case .number: return typed + " (\(engine.lua.shown(at: i, on: L)))"
        case .string: return typed + " (\(engine.lua.quoted(at: i, on: L)))"
        default: return typed
        }
    }

    /// Replaces the table at `index` by a shallow copy (raw).
    private static func copyTable(at index: Int32, _ L: OpaquePointer, engine: Engine) throws {
        LuaStack(L).newTable(array: 0, fields: 8)
        LuaStack(L).pushNil()
        while LuaStack(L).next(index) {
            try engine.runtime.limits.tick()
            LuaStack(L).pushValue(at: -2)
            LuaStack(L).insert(at: -2)
            LuaStack(L).set(into: -4)
        }
        LuaStack(L).replace(at: index)
    }

    /// Reads `props[key]` raw.
    func prop(_ c: Component, _ key: String) -> Value {
        guard case .table(let ref) = c.props else { return .nil }
        return engine.scriptTables.field(ref, key)
    }
}
