extension Runtime {
    /// `action:send(sender, ...)`: checks and converts the arguments, fills demoted ones with
    /// zeros, walks the chain and calls the first responder that handles the selector.
    @discardableResult
    public func send(_ action: Action, sender: Responder?, arguments: [Value]) throws -> Bool {
        guard ThreadIdentity.current == ownerThread else {
            throw RuntimeError(.notMainThread, "an action was sent from another thread; send actions from the thread that created the runtime")
        }
        let args = try conform(arguments, to: action)
        return try perform {
            switch action.kind {
            case .block:
                let entry = tracer?.begin(selector: "(block)", sender: sender)
                try action.block!.call(nil, [sender.map(\.value) ?? .nil] + args)
                tracer?.end(entry, handledBy: nil)
                return true
            case .scope:
                guard let scope = action.scope, scope.isLive, let c = scope.component, c.generation >= action.generation,
                      scope.host?.isDestroyed == false else { return false }
                let start: Responder? = action.behavior == .startAtSender ? .component(c) : nextResponder(.component(c))
                return try walk(action, from: start, sender: sender, args)
            case .target:
                let target = action.target!
                let start: Responder? = action.behavior == .startAtSender ? target : nextResponder(target)
                return try walk(action, from: start, sender: sender, args)
            case .selector:
                let start: Responder? = sender.flatMap { action.behavior == .startAtSender ? $0 : nextResponder($0) }
                return try walk(action, from: start, sender: sender, args)
            }
        }
    }

    private func walk(_ action: Action, from start: Responder?, sender: Responder?, _ args: [Value]) throws -> Bool {
        let selector = action.selector!
        let entry = tracer?.begin(selector: selector, sender: sender)
        var current = start
        var visited: [Responder] = []
        while let r = current {
            visited.append(r)
            if try canPerform(r, selector, sender: sender) {
                tracer?.visit(entry, r, handled: true)
                guard let m = method(of: r, selector) else {
                    throw RuntimeError(.doesNotRespond, "\(r.name) claimed \"\(selector)\" in canPerformAction but has no such method; define it or return false")
                }
                defer { tracer?.end(entry, handledBy: r) }
                try m.call(r, [sender.map(\.value) ?? .nil] + args)
                return true
            }
            tracer?.visit(entry, r, handled: false)
            current = nextResponder(r)
        }
        tracer?.end(entry, handledBy: nil)
        return try unhandled(action, sender: sender, visited: visited)
    }

    private func unhandled(_ action: Action, sender: Responder?, visited: [Responder]) throws -> Bool {
        let selector = action.selector ?? "?"
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

    /// Checks each argument against the action's types; a missing trailing one is nil, then
    /// demoted positions get their zeros.
    func conform(_ arguments: [Value], to action: Action) throws -> [Value] {
        let types = action.types
        if arguments.count > types.count {
            throw RuntimeError(.badArgument, "send: \(arguments.count) arguments after the sender, but the action is typed \(action.describe(types)); pass at most \(types.count)")
        }
        var out: [Value] = []
        out.reserveCapacity(action.fullTypes.count)
        for (i, type) in types.enumerated() {
            let value = i < arguments.count ? arguments[i] : .nil
            guard let converted = type.conform(value, tables: tables, className: classNames(of:)) else {
                throw RuntimeError(.badArgument, "send: argument #\(i + 1) must be \(type), got \(value.typeName)")
            }
            out.append(converted)
        }
        for type in action.fullTypes.dropFirst(types.count) { out.append(type.zero(tables: tables)) }
        return out
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
