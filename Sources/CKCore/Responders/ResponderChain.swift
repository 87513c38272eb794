extension Runtime {
    /// SPEC §6.1: component → controller → mount parent → … → root → its controller →
    /// hosting view → host responders → nil.
    public func nextResponder(_ r: Responder) -> Responder? {
        switch r {
        case .component(let c):
            if let k = c.scope?.controller, !k.isInvalidated, k.component === c || k.mountedComponent === c {
                return .controller(k)
            }
            return mountParent(of: c)
        case .controller(let k):
            return mountParent(of: k.mountedComponent ?? k.component)
        case .view(let v):
            if let host = v.hostingHost { return host.responders.first.map { .script($0) } }
            return v.superview.map { .view($0) }
        case .script(let s):
            return s.next.map { .script($0) }
        }
    }

    private func mountParent(of c: Component) -> Responder? {
        guard c.isMounted else { return nil }
        if let p = c.parent { return .component(p) }
        if let host = c.host, host.root === c, host.isMounted { return .view(host.hostingView) }
        return nil
    }

    public func responderChain(from r: Responder) -> [Responder] {
        var out: [Responder] = [r]
        var current = r
        while let next = nextResponder(current) {
            out.append(next)
            current = next
        }
        return out
    }

    /// Whether `r` handles `selector`: its `canPerformAction` override, else whether it has the method.
    public func canPerform(_ r: Responder, _ selector: String, sender: Responder?) throws -> Bool {
        switch r {
        case .component(let c):
            if let f = c.componentClass.canPerformAction { return try f(c, selector, sender) }
            return c.componentClass.method(selector) != nil
        case .controller(let k):
            if let f = k.controllerClass.canPerformAction { return try f(k, selector, sender) }
            return k.controllerClass.method(selector) != nil
        case .view:
            return false
        case .script(let s):
            if let f = s.canPerformAction, let answer = try f(selector, sender) { return answer }
            return s.lookup(selector) != nil
        }
    }

    public func method(of r: Responder, _ selector: String) -> Method? {
        switch r {
        case .component(let c): c.componentClass.method(selector)
        case .controller(let k): k.controllerClass.method(selector)
        case .view: nil
        case .script(let s): s.lookup(selector)
        }
    }

    /// `ck.targetForAction(x, selector, sender)`.
    public func target(for selector: String, from start: Responder, sender: Responder?) throws -> Responder? {
        var current: Responder? = start
        while let r = current.take() {   // taken, not copied (as `walk` does)
            if try canPerform(r, selector, sender: sender) { return r }
            current = nextResponder(r)
        }
        return nil
    }
}
