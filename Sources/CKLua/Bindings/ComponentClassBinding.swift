import CKCore

/// `ck.component(name, def)` and component class objects: `Class(props)`, `function Class:m() end`.
enum ComponentClassBinding {
    static func register(in engine: Engine) {
        engine.functions.defineMetatable(.componentClass, index: classField, newindex: setClassField, tostring: { args in
            let cls: ComponentClass = try args.object(1, "class", "a component class")
            return "<component class \(cls.shownName)>"
        }, extra: registerClassCall(in:))
        engine.functions.setFunctions([("component", component)], prefix: "ck.")
    }

    /// `ck.component(name, def)`.
    static func component(_ args: Arguments) throws -> Int32 {
        let name = try args.string(1, "name")
        if let problem = ClassName.problem(name) {
            throw RuntimeError(.badArgument, "ck.component: the class name \(args.engine.lua.quoted(at: 1, on: args.L)) \(problem); a component's printed name is a query that finds it, so name the class with letters, digits and `_` (\"MyRow\")")
        }
        // No definition is refused, not an empty class: `ck.component("Row")` read as a getter
        // would otherwise replace the class Row with one that renders nothing (atk-apps).
        guard !args.isNil(2) else {
            throw RuntimeError(.badArgument, "ck.component(\(args.engine.lua.quoted(at: 1, on: args.L))) was given no definition: ck.component defines (or redefines) a class, it does not look one up; keep the class the defining call returned (local \(Excerpt.text(name)) = ck.component(\(args.engine.lua.quoted(at: 1, on: args.L)), {…})), or pass {} for a class with no fields")
        }
        try args.table(2, "def")
        try args.engine.runtime.claimTypeName(name, as: .componentClass, in: "ck.component")
        let cls = try args.engine.classes.defineComponent(name, defAt: 2, args.L)
        NameCheck.builtinName(name, engine: args.engine, L: args.L)
        args.engine.values.push(cls, args.L)
        return 1
    }

    static func classField(_ args: Arguments, _ key: String) throws -> Int32 {
        let cls: ComponentClass = try args.object(1, "class", "a component class")
        return ClassFields.get(args, cls, named: cls.name, key)
    }

    /// `Class.key = value`: configures the class as its definition would.
    static func setClassField(_ args: Arguments, _ key: String) throws -> Int32 {
        let cls: ComponentClass = try args.object(1, "class", "a component class")
        return try ClassFields.set(args, cls, args.engine.classes.configurator(for: cls, args.L), key)
    }

    /// `__call` of the class metatable (on top of the stack): C runs a class's scope function
    /// (ckclass.c), then one of these Swift functions.
    static func registerClassCall(in engine: Engine) {
        let plain = engine.functions.registerFunction("Class(props)", constructPlain)
        let checked = engine.functions.registerFunction("Class(props)", constructChecked)
        let computed = engine.functions.registerFunction("Class(props)", constructComputed)
        // Raw, without the host-function wrapper (the name, a do/catch, one closure more): it
        // neither throws nor raises, and runs once per kept row (~190 instructions a call).
        let keep = engine.lua.register { [unowned(unsafe) engine] call in
            engine.isClosing ? 0 : Unmanaged.passUnretained(engine)._withUnsafeGuaranteedRef { keepRecorded(call.L, $0) }
        }
        engine.objects.pushClassCall(metatableAt: -1, plain: plain, checked: checked, computed: computed,
                                     keep: keep, state: engine.runtime.callState, engine.runningThread)
        LuaStack(engine.runningThread).setField("__call", of: -2)
    }

    static func constructPlain(_ args: Arguments) throws -> Int32 {
        let cls: ComponentClass = try args.object(1, "class", "a component class")
        _ = try args.engine.classes.construct(cls, propsAt: 2, args.L, pushing: true)
        return 1
    }

    /// The class's handle was checked in C.
    static func constructChecked(_ args: Arguments) throws -> Int32 {
        try args.withEngine { engine in
            _ = try ClassBridge.construct(try checkedClass(args, engine), propsAt: 2, args.L, pushing: true,
                                          engine: engine)
        }
        return 1
    }

    /// C ran the class's scope function: the key as given is at 4, what it returned at 5. A
    /// class keeping its instances by key gets a 6th, whether C found the props reach nothing.
    static func constructComputed(_ args: Arguments) throws -> Int32 {
        try args.withEngine { engine in
            let built = try ClassBridge.construct(try checkedClass(args, engine), propsAt: 2, args.L,
                                                  computed: (key: 4, identifier: 5), pushing: true, engine: engine)
            if LuaStack(args.L).isBoolean(6), LuaStack(args.L).toBool(6) { markPlainProps(of: built, given: 2, args.L) }
        }
        return 1
    }

    /// The built component's props are the table at `given`, which C walked and found to reach
    /// nothing: a burial of this instance need not walk it again (`Ownership.bury`).
    private static func markPlainProps(of built: Component, given: Int32, _ L: OpaquePointer) {
        guard case .table(let r) = built.props, let ref = r as? LuaRef,
              ref.identity == LuaStack(L).identity(given) else { return }
        ref.isPlain = true
    }

    /// C found the instance last made or kept for this class and key (class, props, keep, key,
    /// instance, answer: C's compare of the props with those the instance's handle carries, 2
    /// for "maybe"): 1 leaves it as the result when the build keeps it (`Runtime.keepRecorded`);
    /// 0 claims nothing, and C constructs.
    static func keepRecorded(_ L: OpaquePointer, _ engine: Engine) -> Int32 {
        guard let cls = engine.objects.object(inCheckedHandleAt: 1, L) as? ComponentClass,
              cls.builtin == nil, cls.actionProps.isEmpty, let old = engine.objects.component(inCheckedHandleAt: 5, L) else { return 0 }
        let tables = engine.scriptTables!
        let kept = engine.runtime.keepRecorded(old, of: cls, isKey: { key in
            let stack = LuaStack(L)
            if case .int(let i) = key { return stack.isInteger(4) && stack.integer(4) == i }
            return engine.values.plainValue(at: 4, L).map(key.rawEquals) ?? false
        }, propsEqual: { props in
            let answer = LuaStack(L).integer(6)
            if answer != 2 { return answer == 1 }
            guard case .table(let ref) = props else { return false }
            return tables.shallowEqual(ref, toTableAt: 2, L)
        })
        return kept ? 1 : 0
    }

    private static func checkedClass(_ args: Arguments, _ engine: Engine) throws -> ComponentClass {
        try engine.objects.object(inCheckedHandleAt: 1, args.L) as? ComponentClass
            ?? args.object(1, "class", "a component class")
    }
}
