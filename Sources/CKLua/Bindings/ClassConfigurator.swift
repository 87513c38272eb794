import CKCore

/// Component and controller classes, configured by one path: the table of special keys below,
/// then functions as methods. `Class.key = value` after definition takes the same path (nil
/// clears a special key, or removes a method).
struct ClassConfigurator {
    /// A key that configures the class instead of naming a method. `apply` gets the value's
    /// stack index; the value is nil to clear the setting.
    struct SpecialKey: Sendable {
        let components: Bool
        let controllers: Bool
        let apply: @Sendable (ClassConfigurator, Int32) throws -> Void

        static func component(_ apply: @escaping @Sendable (ClassConfigurator, Int32) throws -> Void) -> SpecialKey {
            SpecialKey(components: true, controllers: false, apply: apply)
        }
        static func both(_ apply: @escaping @Sendable (ClassConfigurator, Int32) throws -> Void) -> SpecialKey {
            SpecialKey(components: true, controllers: true, apply: apply)
        }
    }

    /// In the order a definition applies them: `actions` types resolve before methods are checked.
    static let order = ["scope", "controller", "pure", "actions", "initialState", "render", "view",
                        "canPerformAction", "shouldUpdate", "children"]
    static let specialKeys: [String: SpecialKey] = [
        "render": .component(ClassKeys.render), "view": .component(ClassKeys.view),
        "scope": .component(ClassKeys.scope), "initialState": .component(ClassKeys.initialState),
        "controller": .component(ClassKeys.controller), "pure": .component(ClassKeys.pure),
        "actions": .component(ClassKeys.actions), "shouldUpdate": .component(ClassKeys.shouldUpdate),
        "children": .component { _, _ in },   // reserved: the built-in Stack's prop
        "canPerformAction": .both(ClassKeys.canPerformAction),
    ]

    unowned(unsafe) let engine: Engine
    let L: OpaquePointer
    /// Exactly one of these.
    let component: ComponentClass?
    let controller: ControllerClass?

    var cls: RuntimeObject { component ?? controller! }
    var name: String { component?.name ?? controller!.name }
    var definer: String { component != nil ? "ck.component(\"\(Excerpt.text(name))\")" : "ck.controller(\"\(Excerpt.text(name))\")" }
    var stack: LuaStack { LuaStack(L) }

    func specialKey(_ key: String) -> SpecialKey? {
        guard let k = Self.specialKeys[key], component != nil ? k.components : k.controllers else { return nil }
        return k
    }

    /// Applies a definition table: special keys first, then every other string key.
    func define(from def: Int32) throws {
        guard def != 0, stack.isTable(def) else { return }
        for key in Self.order where specialKey(key) != nil {
            stack.field(key, of: def)
            defer { stack.pop() }
            if !stack.isNil(-1) {
                try specialKey(key)!.apply(self, stack.top)
                engine.classes.storeField(cls, key, valueAt: stack.top, L)
            }
        }
        // Keys first, then values: defining a method may warn, and a warning runs Lua, which
        // must not run between the steps of a `next` traversal.
        var keys: [String] = []
        stack.pushNil()
        while stack.next(def) {
            defer { stack.pop() }
            try engine.runtime.limits.tick()
            guard let key = try Arguments(L: L, engine: engine, function: definer).key(at: -2, in: definer),
                  specialKey(key) == nil else { continue }
            keys.append(key)
        }
        // In name order: a table's traversal order is seeded per process, and a method's
        // definition may warn (the warnings would come in a different order each run).
        for key in keys.sorted() {
            stack.field(key, of: def)
            defer { stack.pop() }
            if !stack.isNil(-1) { try set(key, valueAt: stack.top) }
        }
    }

    /// `Class.key = value`: a special key configures; any other key's value replaces the method
    /// of that name (a function or callable table is the new one; nil, 42 or "text" leaves
    /// none), through `setMethod`, which makes every plan stale.
    func set(_ key: String, valueAt index: Int32) throws {
        let index = stack.absolute(index)
        if let special = specialKey(key) {
            let callsThrough = wrapsOrUnwraps(key, valueAt: index)
            try special.apply(self, index)
            // A spy over the function it replaces (or its revert) observes the class without
            // changing what it does: kept instances stay kept (atk-apps2 11).
            if !callsThrough { engine.runtime.definitionsChanged() }
        } else {
            if !stack.isNil(index) { try RuntimeNames.check(key, of: self) }
            setMethod(method(key, at: index), named: key)
            if stack.isFunction(index) { NameCheck.method(key, of: self) }
        }
        engine.classes.storeField(cls, key, valueAt: index, L)
    }

    /// Whether the value at `index` is the class's `key` as it is seen through luassert's spy:
    /// a callable table whose `callback` is the current value (`spy.on(Class, "render")`), or
    /// the current value's `callback` (the spy's `revert`). A stub's own function is new code,
    /// and counts as a definition.
    private func wrapsOrUnwraps(_ key: String, valueAt index: Int32) -> Bool {
        engine.classes.pushField(cls, key, L)
        let current = stack.absolute(-1)
        defer { stack.pop() }
        if stack.isNil(current) { return false }
        if stack.isCallableTable(index) {
            stack.field("callback", of: index)
            defer { stack.pop() }
            if stack.rawEqual(-1, current) { return true }
        }
        if stack.isCallableTable(current) {
            stack.field("callback", of: current)
            defer { stack.pop() }
            if stack.rawEqual(-1, index) { return true }
        }
        return false
    }

    /// The method a value makes: a function, or a callable table (a spy or stub, with an arity
    /// of its own), else none.
    private func method(_ key: String, at index: Int32) -> Method? {
        if stack.isFunction(index) { return engine.values.method(at: index, name: key, hasSelf: true, L) }
        guard stack.isCallableTable(index) else { return nil }
        return engine.values.callableMethod(at: index, name: key, L)
    }

    private func setMethod(_ m: Method?, named key: String) {
        if let component { component.setMethod(m, named: key) } else { controller!.setMethod(m, named: key) }
    }

    /// The function at `i`, or a callable table (a spy or stub: `spy.on(Class, "render")`),
    /// or `[badArgument]` naming the key.
    func function(_ i: Int32, _ key: String) throws -> LuaRef {
        guard let f = callable(i) else {
            throw RuntimeError(.badArgument, "\(definer): \(Excerpt.text(key)) must be a function, got \(stack.typeName(i))\(stack.whyNotCallable(i) ?? "")")
        }
        return f
    }

    /// The function or callable table at `i`, else nil: every key that takes a function takes a
    /// spy, a stub or a mock's replacement, which luassert makes callable tables.
    func callable(_ i: Int32) -> LuaRef? {
        stack.isCallable(i) ? engine.values.callableReference(at: i, L) : nil
    }

    func bad(_ key: String, _ expected: String) -> RuntimeError {
        RuntimeError(.badArgument, "\(definer): \(Excerpt.text(key)) must be \(expected)")
    }
}
