extension Runtime {
    /// `action:send(sender, ...)`: checks and converts the arguments, fills demoted ones with
    /// zeros, walks the chain and calls the first responder that handles the selector.
    @discardableResult
    public func send(_ action: Action, sender: Responder?, arguments: [Value]) throws -> Bool {
        try send(action, sender: sender, count: arguments.count) { arguments[$0] }
    }

    /// The same, reading the `count` arguments through `argument(i)` (no array on the way in).
    @discardableResult
    public func send(_ action: Action, sender: Responder?, count: Int, argument: (Int) -> Value) throws -> Bool {
        guard ThreadIdentity.current == ownerThread else {
            throw RuntimeError(.notMainThread, "an action was sent from another thread; send actions from the thread that created the runtime")
        }
        // One array for the whole send: the sender, then the converted arguments, then zeros.
        var call: [Value] = []
        call.reserveCapacity(action.fullTypes.count + 1)
        call.append(sender.map(\.value) ?? .nil)
        try conform(count, argument, to: action, into: &call)
        return try perform {
            switch action.kind {
            case .block:
                let entry = tracer?.begin(selector: "(block)", sender: sender)
                try action.block!.call(nil, call)
                tracer?.end(entry, handledBy: nil)
                return true
            case .scope:
                guard let scope = action.scope, scope.isLive, let c = scope.component, c.generation >= action.generation,
                      scope.host?.isDestroyed == false else { return false }
                let start: Responder? = action.behavior == .startAtSender ? .component(c) : nextResponder(.component(c))
                return try walk(action, from: start, sender: sender, call)
            case .target:
                let target = action.target!
                let start: Responder? = action.behavior == .startAtSender ? target : nextResponder(target)
                return try walk(action, from: start, sender: sender, call)
            case .selector:
                let start: Responder? = sender.flatMap { action.behavior == .startAtSender ? $0 : nextResponder($0) }
                return try walk(action, from: start, sender: sender, call)
            }
        }
    }

    private func walk(_ action: Action, from start: Responder?, sender: Responder?, _ call: [Value]) throws -> Bool {
        let selector = action.selector!
        let entry = tracer?.begin(selector: selector, sender: sender)
        var current = start
        while let r = current {
            if let m = try handler(r, action, sender: sender) {
                tracer?.visit(entry, r, handled: true)
                defer { tracer?.end(entry, handledBy: r) }
                try m.call(r, call)
                return true
            }
            tracer?.visit(entry, r, handled: false)
            current = nextResponder(r)
        }
        tracer?.end(entry, handledBy: nil)
        return try unhandled(action, sender: sender, start: start)
    }

    /// The method `r` handles the action with, or nil: its `canPerformAction` override if any,
    /// else whether it has the method (looked up by interned selector).
    private func handler(_ r: Responder, _ action: Action, sender: Responder?) throws -> Method? {
        let id = action.selectorID, name = action.selector!
        switch r {
        case .component(let c):
            let cls = c.componentClass
            if let f = cls.canPerformAction {
                guard try f(c, name, sender) else { return nil }
                return try claimed(cls.method(id: id, name: name), r, name)
            }
            return cls.method(id: id, name: name)
        case .controller(let k):
            let cls = k.controllerClass
            if let f = cls.canPerformAction {
                guard try f(k, name, sender) else { return nil }
                return try claimed(cls.method(id: id, name: name), r, name)
            }
            return cls.method(id: id, name: name)
        case .view:
            return nil
        case .script(let s):
            if let f = s.canPerformAction, let answer = try f(name, sender) {
                return answer ? try claimed(s.lookup(name), r, name) : nil
            }
            return s.lookup(name)
        }
    }

    private func claimed(_ m: Method?, _ r: Responder, _ selector: String) throws -> Method {
        guard let m else {
            throw RuntimeError(.doesNotRespond, "\(r.name) claimed \"\(selector)\" in canPerformAction but has no such method; define it or return false")
        }
        return m
    }

    private func unhandled(_ action: Action, sender: Responder?, start: Responder?) throws -> Bool {
        let selector = action.selector ?? "?"
        let visited = start.map { responderChain(from: $0) } ?? []
        let chain = (visited.map(\.name) + ["nil"]).joined(separator: " -> ")
        let error: RuntimeError
        if action.kind == .selector, case .component(let c)? = sender, !c.isMounted {
            error = RuntimeError(.notMounted, "\"\(selector)\" was sent from \(c.label), which is not mounted, and nothing handled it (chain: \(chain)); mount the host first, or use a scope action")
        } else {
            let from = sender.map { " from \($0.name)" } ?? ""
            error = RuntimeError(.unhandledAction, "nothing handles \"\(selector)\"\(from); chain walked: \(chain). Define \(selector) on one of these responders, or set ck.config.unhandledAction")
        }
        switch unhandledAction {
        case .error: throw error
        case .warn: onWarning(error.description); return false
        case .ignore: return false
        }
    }

    /// Checks each argument against the action's types and appends it converted; a missing
    /// trailing one is nil, then demoted positions get their zeros.
    func conform(_ count: Int, _ argument: (Int) -> Value, to action: Action, into out: inout [Value]) throws {
        let types = action.types
        if count > types.count {
            throw RuntimeError(.badArgument, "send: \(count) arguments after the sender, but the action is typed \(action.describe(types)); pass at most \(types.count)")
        }
        for (i, type) in types.enumerated() {
            let value = i < count ? argument(i) : .nil
            guard let converted = type.conform(value, tables: tables, className: classNames(of:)) else {
                throw RuntimeError(.badArgument, "send: argument #\(i + 1) must be \(type), got \(value.typeName)")
            }
            out.append(converted)
        }
        for type in action.fullTypes.dropFirst(types.count) { out.append(type.zero(tables: tables)) }
    }

    /// The class names an object answers to, for class-typed arguments.
    func classNames(of object: RuntimeObject) -> [String] {
        switch object {
        case let c as Component: [c.componentClass.name, "Component"]
        case let k as Controller: [k.controllerClass.name, "Controller"]
        case is View: ["View"]
        case is Event: ["Event"]
        default: [object.typeName]
        }
    }
}
