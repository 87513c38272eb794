import CKCore
import CLua
import CLuaShims

/// `ck.component(name, def)` and component class objects: `Class(props)`, `function Class:m() end`.
enum ComponentClassBinding {
    static let specialKeys: Set<String> = [
        "render", "view", "scope", "initialState", "controller", "actions", "canPerformAction",
        "shouldUpdate", "pure", "children",
    ]

    static func register(in engine: Engine) {
        engine.defineMetatable(.componentClass, index: { args, key in
            let cls: ComponentClass = try args.object(1, "class", "a component class")
            switch key {
            case "name": args.engine.pushString(cls.name, args.L)
            default: args.engine.pushClassField(cls, key, args.L)
            }
            return 1
        }, newindex: { args, key in
            let cls: ComponentClass = try args.object(1, "class", "a component class")
            try args.engine.setClassField(cls, key, valueAt: 3, args.L)
            return 0
        }, tostring: { args in
            let cls: ComponentClass = try args.object(1, "class", "a component class")
            return "<component class \(cls.name)>"
        }, extra: { engine in
            // C runs a class's scope function (see ckclass.c), then one of these.
            func checkedClass(_ args: Arguments) throws -> ComponentClass {
                try args.engine.objects.object(inCheckedHandleAt: 1, args.L) as? ComponentClass
                    ?? args.object(1, "class", "a component class")
            }
            let plain = engine.registerFunction("Class(props)") { args in
                let cls: ComponentClass = try args.object(1, "class", "a component class")
                let c = try args.engine.construct(cls, propsAt: 2, args.L)
                args.engine.objects.push(c, kind: .component, args.L)
                return 1
            }
            let checked = engine.registerFunction("Class(props)") { args in
                let e = args.engine, L = args.L
                e.objects.push(try e.construct(try checkedClass(args), propsAt: 2, L), kind: .component, L)
                return 1
            }
            let computed = engine.registerFunction("Class(props)") { args in
                let e = args.engine, L = args.L
                let c = try e.construct(try checkedClass(args), propsAt: 2, L, computed: (key: e.value(at: 4, L), identifier: e.value(at: 5, L)))
                e.objects.push(c, kind: .component, L)
                return 1
            }
            let state = UnsafeRawPointer(engine.runtime.callState).bindMemory(to: ck_callstate.self, capacity: 1)
            ck_push_class_call(engine.L, -1, plain, checked, computed, state)
            lua_setfield(engine.L, -2, "__call")
        })
        engine.setFunction("component", qualified: "ck.component") { args in
            let name = try args.string(1, "name")
            if !args.isNil(2) { try args.table(2, "def") }
            let cls = try args.engine.defineComponentClass(name, defAt: 2, args.L)
            args.engine.push(cls, args.L)
            return 1
        }
    }
}

extension Engine {
    /// Builds a class from `def`: special keys configure it, functions become methods.
    func defineComponentClass(_ name: String, defAt def: Int32, _ L: OpaquePointer) throws -> ComponentClass {
        let cls = ComponentClass(name: name)
        componentClassesDefined += 1
        // Keyed by identity: a class freed earlier may have had this address.
        scopeFunctions[ObjectIdentifier(cls)] = nil
        lua_createtable(L, 0, 8)
        classTables[ObjectIdentifier(cls)] = reference(at: -1, L, "table")
        ck_pop(L, 1)
        // A class's closures capture the engine unowned(unsafe): only the engine's runtime builds,
        // so they never run after it; a checked unowned capture costs an atomic per render.
        cls.readProp = { [unowned(unsafe) self] c, key in self.prop(c, key) }
        if def != 0, lua_type(L, def) == LUA_TTABLE {
            // Special keys first, so `actions` types resolve before methods are checked.
            for key in ["scope", "controller", "pure", "actions", "initialState", "render", "view",
                        "canPerformAction", "shouldUpdate"] {
                rawField(L, def, key)
                defer { ck_pop(L, 1) }
                if lua_type(L, -1) > LUA_TNIL { try configure(cls, key, valueAt: lua_gettop(L), L) }
            }
            lua_pushnil(L)
            while lua_next(L, def) != 0 {
                defer { ck_pop(L, 1) }
                guard lua_type(L, -2) == LUA_TSTRING, let key = lua.string(at: -2, on: L),
                      !ComponentClassBinding.specialKeys.contains(key) else { continue }
                try setClassField(cls, key, valueAt: lua_gettop(L), L)
            }
        }
        runtime.define(cls)
        return cls
    }

    /// `Class.key = value` after definition: functions are methods, other values class fields.
    func setClassField(_ cls: ComponentClass, _ key: String, valueAt index: Int32, _ L: OpaquePointer) throws {
        let index = lua_absindex(L, index)
        if ComponentClassBinding.specialKeys.contains(key) {
            try configure(cls, key, valueAt: index, L)
        } else if lua_type(L, index) == LUA_TFUNCTION {
            cls.setMethod(method(at: index, name: key, hasSelf: true, L), named: key)
        } else if lua_type(L, index) == LUA_TNIL {
            cls.setMethod(nil, named: key)
        }
        storeClassField(cls, key, valueAt: index, L)
    }

    /// Keeps `Class.key = value` readable from Lua (the class's field table).
    func storeClassField(_ cls: RuntimeObject, _ key: String, valueAt index: Int32, _ L: OpaquePointer) {
        classTables[ObjectIdentifier(cls)]!.push(L)
        lua_pushvalue(L, index)
        lua_setfield(L, -2, key)
        ck_pop(L, 1)
    }

    /// A script predicate `(self, selector, sender) -> truthy` as a Swift closure.
    func predicate(_ f: LuaRef) -> (Value, String, Responder?) throws -> Bool {
        { [unowned self] receiver, selector, sender in
            let r = try self.callForValue(f, receiver, .string(selector), sender?.value ?? .nil)
            if case .bool(let b) = r { return b }
            return !r.isNil
        }
    }

    func pushClassField(_ cls: RuntimeObject, _ key: String, _ L: OpaquePointer) {
        guard let table = classTables[ObjectIdentifier(cls)] else { lua_pushnil(L); return }
        table.push(L)
        pushString(key, L)
        lua_rawget(L, -2)
        ck_remove(L, -2)
    }

    private func configure(_ cls: ComponentClass, _ key: String, valueAt i: Int32, _ L: OpaquePointer) throws {
        let t = lua_type(L, i)
        let where_ = "ck.component(\"\(cls.name)\"): \(key)"
        // What `Class(props)` runs in C depends on both (see setScopeFunction).
        defer { if key == "scope" || key == "actions" { refreshClassCall(cls, L) } }
        func fn() throws -> LuaRef {
            guard t == LUA_TFUNCTION else {
                throw RuntimeError(.badArgument, "\(where_) must be a function, got \(String(cString: lua_typename(L, t)))")
            }
            return reference(at: i, L, "function")
        }
        if t <= LUA_TNIL {
            switch key {
            case "render": cls.render = nil
            case "view": cls.view = nil
            case "scope":
                cls.scope = .none
                scopeFunctions[ObjectIdentifier(cls)] = nil
            case "initialState": cls.initialState = nil
            case "controller": cls.controllerName = nil
            case "pure": cls.isPure = false
            case "actions": cls.actionProps = []
            case "canPerformAction": cls.canPerformAction = nil
            case "shouldUpdate": cls.shouldUpdate = nil
            default: break
            }
            return
        }
        switch key {
        case "render":
            let f = try fn()
            cls.render = { [unowned(unsafe) self] c in try self.callRender(f, c, what: "render of \(c.name)") }
        case "view":
            if t == LUA_TFUNCTION {
                let f = reference(at: i, L, "function")
                cls.view = { [unowned(unsafe) self] c in
                    let v = try self.callForValue(f, .object(c), c.props, c.state)
                    return try self.viewSpec(v, in: c.name)
                }
            } else if t == LUA_TTABLE {
                // A view spec table is read once, at the first render: every instance shares it.
                let spec = value(at: i, L)
                var read: ViewSpec??
                cls.view = { [unowned(unsafe) self] c in
                    if let read { return read }
                    let made = try self.viewSpec(spec, in: c.name)
                    read = .some(made)
                    return made
                }
            } else {
                throw RuntimeError(.badArgument, "\(where_) must be a view spec table or a function")
            }
        case "scope":
            if t == LUA_TFUNCTION {
                let f = reference(at: i, L, "function")
                cls.scope = .computed { [unowned(unsafe) self] c in try self.callForValue(f, c.props) }
                scopeFunctions[ObjectIdentifier(cls)] = f
            } else if lua_toboolean(L, i) != 0 {
                cls.scope = .anonymous
                scopeFunctions[ObjectIdentifier(cls)] = nil
            }
        case "initialState":
            if t == LUA_TFUNCTION {
                let f = reference(at: i, L, "function")
                cls.initialState = { [unowned(unsafe) self] c in try self.callForValue(f, c.props) }
            } else {
                let v = value(at: i, L)
                cls.initialState = { _ in v }
            }
        case "controller":
            if let k = objects.object(at: i, L) as? ControllerClass {
                cls.controllerName = k.name
            } else if t == LUA_TSTRING {
                cls.controllerName = lua.string(at: i, on: L)
            } else {
                throw RuntimeError(.badArgument, "\(where_) must be a controller class or its name")
            }
        case "pure":
            cls.isPure = lua_toboolean(L, i) != 0
        case "actions":
            guard t == LUA_TTABLE else { throw RuntimeError(.badArgument, "\(where_) must be a table of prop = {types}") }
            var props: [(String, [TypeSpec])] = []
            lua_pushnil(L)
            while lua_next(L, i) != 0 {
                defer { ck_pop(L, 1) }
                guard let name = lua.string(at: -2, on: L) else { continue }
                let args = Arguments(L: L, engine: self, function: "\(where_).\(name)")
                props.append((name, try args.types(lua_gettop(L), name)))
            }
            cls.actionProps = props.sorted { $0.0 < $1.0 }.map { (name: $0.0, types: $0.1) }
        case "canPerformAction":
            let claim = predicate(try fn())
            cls.canPerformAction = { c, sel, sender in try claim(.object(c), sel, sender) }
        case "shouldUpdate":
            let f = try fn()
            cls.shouldUpdate = { [unowned(unsafe) self] old, new in
                let r = try self.callForValue(f, .object(new), old.props, new.props)
                if case .bool(let b) = r { return b }
                return !r.isNil
            }
        default:
            break
        }
    }

    /// Calls a render-like function `(self, props, state)`; it must return a component or nil.
    func callRender(_ f: LuaRef, _ c: Component, what: @autoclosure () -> String) throws -> Component? {
        let v = try callForValue(f, .object(c), c.props, c.state)
        switch v {
        case .nil: return nil
        case .object(let o as Component): return o
        default:
            throw RuntimeError(.badReturn, "\(what()) returned a \(v.typeName) at \(c.path); return one component built with Class(props), or nil")
        }
    }

    /// Gives a class handle its scope function (or none), for `Class(props)` to run in C. Not
    /// for a class with typed action props: its scope function must see the props after their
    /// actions are promoted, which Swift does, so Swift calls it.
    func setScopeFunction(of cls: ComponentClass, onHandleAt index: Int32, _ L: OpaquePointer) {
        let index = lua_absindex(L, index)
        if cls.actionProps.isEmpty, let f = scopeFunctions[ObjectIdentifier(cls)] { f.push(L) } else { lua_pushnil(L) }
        lua_setiuservalue(L, index, 1)
    }

    /// After the class's scope or action props changed: its live handle, if any, follows.
    private func refreshClassCall(_ cls: ComponentClass, _ L: OpaquePointer) {
        guard cls.bridgeSlot != 0 else { return }
        push(cls, L)
        setScopeFunction(of: cls, onHandleAt: -1, L)
        ck_pop(L, 1)
    }

    /// `Class(props)`: checks typed action props (promoting them), then constructs.
    /// `computed`: the key as given and what the class's scope function returned, if C has
    /// already run it.
    func construct(_ cls: ComponentClass, propsAt index: Int32, _ L: OpaquePointer,
                   computed: (key: Value, identifier: Value)? = nil) throws -> Component {
        if lua_type(L, index) == LUA_TTABLE {
            lua_pushvalue(L, index)
        } else if lua_type(L, index) <= LUA_TNIL {
            lua_createtable(L, 0, 0)
        } else {
            throw RuntimeError(.badArgument, "\(cls.name)(props): props must be a table or nil, got \(String(cString: lua_typename(L, lua_type(L, index))))")
        }
        let t = lua_gettop(L)
        defer { lua_settop(L, t - 1) }
        var copied = false
        for (name, declared) in cls.actionProps {
            rawField(L, t, name)
            defer { ck_pop(L, 1) }
            if lua_type(L, -1) <= LUA_TNIL { continue }
            guard let action = objects.object(at: -1, L) as? Action else {
                throw RuntimeError(.typeMismatch, "\(cls.name).\(name) is an action prop typed \(describeTypes(declared)) but was given a \(value(at: -1, L).typeName); pass ck.action(...) or nil")
            }
            let promoted = try runtime.conformActionProp(action, declared: declared, prop: name, component: cls.name)
            if promoted !== action {
                if !copied { copyTable(at: t, L); copied = true }
                push(promoted, L)
                lua_setfield(L, t, name)
            }
        }
        let key: Value
        if let computed { key = computed.key } else {
            ck_rawgetkey(L, t)
            key = value(at: -1, L)
            ck_pop(L, 1)
        }
        return try runtime.construct(cls, props: value(at: t, L), key: key, identifier: computed?.identifier)
    }

    /// Replaces the table at `index` by a shallow copy (raw).
    private func copyTable(at index: Int32, _ L: OpaquePointer) {
        lua_createtable(L, 0, 8)
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            lua_pushvalue(L, -2)
            ck_insert(L, -2)
            lua_rawset(L, -4)
        }
        ck_replace(L, index)
    }

    func describeTypes(_ types: [TypeSpec]) -> String { "{" + types.map { "\"\($0)\"" }.joined(separator: ", ") + "}" }

    /// Reads `props[key]` raw.
    func prop(_ c: Component, _ key: String) -> Value {
        guard case .table(let ref) = c.props else { return .nil }
        return scriptTables.field(ref, key)
    }
}
