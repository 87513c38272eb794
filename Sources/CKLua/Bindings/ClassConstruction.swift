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
        var fromView = false
        if LuaStack(L).isTable(index) || engine.isPropsView(at: index, L) {
            LuaStack(L).pushValue(at: index)
            fromView = engine.unwrapPropsView(at: -1, L)
        } else if LuaStack(L).isNil(index) {
            LuaStack(L).newTable(array: 0, fields: 0)
        } else {
            throw RuntimeError(.badArgument, "\(cls.name)(props): props must be a table or nil, got \(LuaStack(L).typeName(index))")
        }
        let t = LuaStack(L).top
        var pushed = false
        defer { if !pushed { LuaStack(L).top = t - 1 } }
        let copied = try promoteActionProps(of: cls, at: t, L)
        let given = try cls.builtin.flatMap { try ChildLists(engine: engine, L: L).atConstruction(of: $0, propsAt: t) }
        if let builtin = cls.builtin, !builtin.made.layout.isEmpty { try checkLayout(of: builtin, propsAt: t, L) }
        let c = engine.beginConstruction(props: t, of: cls, L)
        let key: Value
        if let computed { key = engine.value(at: computed.key, L, in: c.arena) } else {
            LuaStack(L).key(of: t)
            key = engine.value(at: -1, L, in: c.arena)
            LuaStack(L).pop(1)
        }
        let built = try engine.runtime.construct(cls, props: .table(c.props), key: key,
                                          identifier: computed.map { engine.value(at: $0.identifier, L, in: c.arena) })
        if let given { built.giveChildren(given) }
        if fromView, !copied { engine.adoptPropsView(at: index, by: built, L) }
        engine.finish(c, of: built, pushingTo: pushing ? t : nil, L)
        pushed = pushing
        if let known = cls.knownProps { NameCheck.props(of: built, known: known, engine: engine, L: L) }
        return built
    }

    /// A built-in's layout props (`ck.Stack{direction = …}`) in the props table at `t`, checked
    /// where they are given (`[badArgument]` with the line of the call).
    private func checkLayout(of builtin: Builtin, propsAt t: Int32, _ L: OpaquePointer) throws {
        _ = try StackLayout(of: builtin.name) { name in
            engine.rawField(L, t, name)
            defer { LuaStack(L).pop(1) }
            return engine.value(at: -1, L)
        }
    }

    /// Checks the typed action props in the props table at `t`, promoting them; true if that
    /// replaced the table by a copy.
    private func promoteActionProps(of cls: ComponentClass, at t: Int32, _ L: OpaquePointer) throws -> Bool {
        var copied = false
        for (name, declared) in cls.actionProps {
            engine.rawField(L, t, name)
            defer { LuaStack(L).pop(1) }
            if LuaStack(L).isNil(-1) { continue }
            guard let action = engine.objects.object(at: -1, L) as? Action else {
                throw RuntimeError(.typeMismatch, "\(cls.name).\(name) is an action prop typed \(Self.describeTypes(declared)) but was given a \(engine.value(at: -1, L).typeName); pass ck.action(...) or nil")
            }
            let promoted = try engine.runtime.conformActionProp(action, declared: declared, prop: name, component: cls.name)
            if promoted !== action {
                if !copied { try copyTable(at: t, L); copied = true }
                engine.push(promoted, L)
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
