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
            throw RuntimeError(.noScope, "\(component.name):action(\"\(selector)\"): \(component.name) declares no scope; add scope = true to \(component.name), or use a target or selector action")
        }
        let controller = try controllerClass(for: component.componentClass)
        let method = component.componentClass.method(selector) ?? controller?.method(selector)
        try checkHandler(method, selector, types, owner: component.name + (controller.map { " or \($0.name)" } ?? ""))
        let (id, name) = selectors.intern(selector)
        return Action(kind: .scope, selector: name, selectorID: id, types: types, scope: scope,
                      generation: component.generation)
    }

    /// `ck.action(target, sel, types)`.
    public func targetAction(_ target: Responder, _ selector: String, types: [TypeSpec]) throws -> Action {
        let method: Method?
        let owner: String
        switch target {
        case .component(let c):
            let controller = try controllerClass(for: c.componentClass)
            method = c.componentClass.method(selector) ?? controller?.method(selector)
            owner = c.name + (controller.map { " or \($0.name)" } ?? "")
        case .controller(let k):
            method = k.controllerClass.method(selector)
            owner = k.controllerClass.name
        case .script(let s):
            method = s.lookup(selector)
            owner = s.name
        case .view(let v):
            method = nil
            owner = v.viewClass
        }
        if case .view = target {} else { try checkHandler(method, selector, types, owner: owner) }
        let (id, name) = selectors.intern(selector)
        return Action(kind: .target, selector: name, selectorID: id, types: types, target: target)
    }

    private func checkHandler(_ method: Method?, _ selector: String, _ types: [TypeSpec], owner: String) throws {
        guard let method else {
            throw RuntimeError(.doesNotRespond, "\(owner) has no method \"\(selector)\"; define function \(owner.split(separator: " ").first ?? ""):\(selector)(sender, ...) or fix the selector")
        }
        if !method.isVararg && method.parameterCount > types.count + 1 {
            throw RuntimeError(.tooManyArguments, "\(owner):\(selector) takes \(method.parameterCount) arguments after self, but the action provides the sender and \(types.count) more; declare types for every argument or drop parameters")
        }
    }

    /// Checks an action given to a prop declared in `def.actions` and returns it promoted.
    public func conformActionProp(_ action: Action, declared: [TypeSpec], prop: String, component: String) throws -> Action {
        if action.types.count > declared.count {
            throw RuntimeError(.implicitDemotion, "\(component).\(prop) is declared \(action.describe(declared)) but was given an action typed \(action.describe(action.types)); demote it explicitly with action:demoted(\(action.describe(declared)))")
        }
        for (i, t) in action.types.enumerated() where !t.isCompatible(with: declared[i]) {
            throw RuntimeError(.typeMismatch, "\(component).\(prop) is declared \(action.describe(declared)) but the action's type #\(i + 1) is \(t); make the types match")
        }
        return action.promoted(to: declared)
    }
}
