extension Runtime {
    public func selectorAction(_ selector: String, types: [TypeSpec]) -> Action {
        let (id, selector) = selectors.intern(selector)
        return Action(kind: .selector, selector: selector, selectorID: id, types: types)
    }

    public func blockAction(_ method: Method, identity: Value, types: [TypeSpec]) -> Action {
        Action(kind: .block, selector: nil, types: types, block: method, blockIdentity: identity)
    }

    /// `component:action(sel, types)`: checked against the class and its controller class.
    public func scopeAction(_ component: Component, _ selector: String, types: [TypeSpec]) throws -> Action {
        guard let scope = component.scope else {
            throw RuntimeError(.noScope, "\(component.shownName):action(\"\(Excerpt.text(selector))\"): \(component.shownName) declares no scope; add scope = true to \(component.shownName), or use a target or selector action")
        }
        try checkHandler(try handlerOwner(of: component, selector), selector, types)
        let (id, name) = selectors.intern(selector)
        return Action(kind: .scope, selector: name, selectorID: id, types: types, scope: scope,
                      generation: component.generation)
    }

    /// `ck.action(target, sel, types)`.
    public func targetAction(_ target: Responder, _ selector: String, types: [TypeSpec]) throws -> Action {
        switch target {
        case .component(let c):
            try checkHandler(try handlerOwner(of: c, selector), selector, types)
        case .controller(let k):
            try Runtime.checkLive(k, "ck.action(\(k.controllerClass.shownName), \"\(Excerpt.text(selector))\")")
            try checkHandler(HandlerOwner(k.controllerClass.method(selector), k.controllerClass.name), selector, types)
        case .script(let s):
            try checkHandler(HandlerOwner(script: s, selector), selector, types)
        case .view:
            break
        }
        let (id, name) = selectors.intern(selector)
        return Action(kind: .target, selector: name, selectorID: id, types: types, target: target)
    }

    /// A dead controller is no target (SPEC §4: after `invalidateController` it is dead): making
    /// or sending an action to it raises `[deadObject]`. The chain never reaches one
    /// (`nextResponder`), and callbacks skip it (`Lifecycle`).
    static func checkLive(_ k: Controller, _ what: @autoclosure () -> String) throws {
        guard k.isInvalidated else { return }
        throw RuntimeError(.deadObject, "\(what()): the controller \(k.controllerClass.shownName) of \(k.component.shownPath) was invalidated (its scope left the tree or its host was destroyed) and handles no actions; target the live one (ck.controllerOf(host:find(query))) or use a scope action (component:action)")
    }

    /// The handler a scope or target action on `component` reaches: the class's own method,
    /// else its controller's, named by the class that has it.
    private func handlerOwner(of component: Component, _ selector: String) throws -> HandlerOwner {
        let cls = component.componentClass
        let controller = try controllerClass(for: cls)
        if let m = cls.method(selector) { return HandlerOwner(m, cls.name) }
        if let controller, let m = controller.method(selector) { return HandlerOwner(m, controller.name) }
        let missing = controller.map { "neither \(cls.shownName) nor its controller class \($0.shownName) has a method" }
            ?? "\(cls.shownName) has no method"
        return HandlerOwner(nil, cls.name, missing: missing, suggested: controller?.name ?? cls.name)
    }

    private func checkHandler(_ owner: HandlerOwner, _ selector: String, _ types: [TypeSpec]) throws {
        guard let method = owner.method else {
            let advice = owner.suggested.map { "define function \($0):\(Excerpt.text(selector))(sender, ...)" }
                ?? "add \(Excerpt.text(selector)) = function(self, sender, ...) to that table"
            throw RuntimeError(.doesNotRespond, "\(owner.missing) \"\(Excerpt.text(selector))\"; \(advice) or fix the selector")
        }
        if !method.isVararg && method.parameterCount > types.count + 1 {
            let given = types.isEmpty ? "only the sender" : "the sender and \(types.count) more (typed \(Action.describe(types)))"
            throw RuntimeError(.tooManyArguments, "\(owner.shownName):\(Excerpt.text(selector)) takes \(method.parameterCount) arguments after self, but the action provides \(given); declare types for every argument or drop parameters")
        }
    }

    /// Checks an action given to a prop declared in `def.actions` and returns it promoted.
    /// `component`: the class's name (or `ck`), shown as messages show names.
    public func conformActionProp(_ action: Action, declared: [TypeSpec], prop: String, component: String) throws -> Action {
        let component = ObjectText.name(component), prop = ObjectText.name(prop)
        if action.types.count > declared.count {
            throw RuntimeError(.implicitDemotion, "\(component).\(prop) is declared \(action.describe(declared)) but was given an action typed \(action.describe(action.types)); demote it explicitly with action:demoted(\(action.describe(declared)))")
        }
        return try action.promoted(to: declared, where: "\(component).\(prop) is declared \(action.describe(declared)) but")
    }
}

/// Which class's method an action made on a target reaches, for its errors.
private struct HandlerOwner {
    let method: Method?
    /// The class's name as messages show it (`ObjectText.name`).
    let shownName: String
    /// How a missing method is said, and the class a definition is suggested on (nil: a table,
    /// whose field is suggested: `function table:x()` would define it on Lua's `table` library).
    let missing: String
    let suggested: String?

    /// `name`: a class's, shown as every message shows one (`ObjectText.name`).
    init(_ method: Method?, _ name: String, missing: String? = nil, suggested: String? = nil) {
        let name = ObjectText.name(name)
        self.method = method
        self.shownName = name
        self.missing = missing ?? "\(name) has no method"
        self.suggested = suggested.map(ObjectText.name) ?? name
    }

    /// A plain table or host responder as the target: named by its `name` field when it has one.
    init(script s: ScriptResponder, _ selector: String) {
        self.method = s.lookup(selector)
        self.shownName = s.shownName
        self.missing = s.name == "table" ? "the target table has no method" : "the target table \(s.shownName) has no method"
        self.suggested = nil
    }
}
