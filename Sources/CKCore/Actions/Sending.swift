extension Runtime {
    /// `action:send(sender, ...)`: checks and converts the arguments, fills demoted ones with
    /// zeros, walks the chain and calls the first responder that handles the selector.
    @discardableResult
    public func send(_ action: Action, sender: Responder?, arguments: [Value]) throws -> Bool {
        try send(action, sender: sender, count: arguments.count) { arguments[$0] }
    }

    /// The same, reading the `count` arguments through `argument(i)` (no array on the way in).
    /// `onPlan` receives the send's plan, if it has one, before the handler runs.
    @discardableResult
    public func send(_ action: Action, sender: Responder?, count: Int, argument: (Int) -> Value,
                     onPlan: ((SendPlan) -> Void)? = nil) throws -> Bool {
        let fromGesture = nextSendIsGesture
        nextSendIsGesture = false
        guard ThreadIdentity.current == ownerThread else {
            throw RuntimeError(.notMainThread, "\(action.sendName) came from another thread; send actions from the thread that created the runtime")
        }
        if action.kind == .selector, sender == nil { throw Self.noSender(action) }
        // One array for the whole send: the sender, then the converted arguments, then zeros.
        if action.kind == .target {
            guard let target = action.target else { throw Self.targetGone(action) }
            if case .controller(let k) = target { try Runtime.checkLive(k, action.sendName) }
        }
        var call: [Value] = []
        call.reserveCapacity(action.fullTypes.count + 1)
        call.append(sender.map(\.value) ?? .nil)
        try conform(count, argument, to: action, into: &call)
        // Plans are made only where no tracer wants to see the walk and the tree is not changing.
        let onPlan = tracer == nil && callState.pointee.changing == 0 ? onPlan : nil
        return try perform {
            if action.kind == .block {
                let entry = tracer?.begin(selector: Tracer.blockSelector, sender: sender)
                defer { tracer?.end(entry, handledBy: nil, ranBlock: true) }
                tracer?.deliver(entry, call, types: action.fullTypes, count: action.block!.passedCount(of: call.count))
                onPlan?(SendPlan(responder: nil, method: action.block!, epoch: callState.pointee.epoch))
                try callHandler(action.block!, of: nil, selector: nil, call)
                return true
            }
            guard case .some(let start) = walkStart(action, sender: sender) else { return false }
            return try walk(action, from: start, sender: sender, call, fromGesture: fromGesture, onPlan: onPlan)
        }
    }

    /// A selector action's walk starts at its sender: without one there is no chain to walk.
    static func noSender(_ action: Action) -> RuntimeError {
        RuntimeError(.badArgument, "\(action.sendName): the sender must be a component, controller, view or responder table, got nil; a selector action walks from its sender, so pass the one it comes from (or make a scope or target action)")
    }

    /// A target action whose target was freed: it left the tree and nothing else held it (an
    /// action does not keep its target alive).
    static func targetGone(_ action: Action) -> RuntimeError {
        RuntimeError(.deadObject, "\(action.sendName): its target left the tree and was freed (an action does not keep its target alive); make the action again from a live target, or use a scope action (component:action)")
    }

    /// Where the walk of a selector, target or scope action starts (which may be nil), or
    /// nil when the send is a no-op: a scope action whose scope has no live component.
    func walkStart(_ action: Action, sender: Responder?) -> Responder?? {
        let startAtSender = action.behavior == .startAtSender
        switch action.kind {
        case .scope:
            guard let scope = action.scope, scope.isLive, let c = scope.component, c.generation >= action.generation,
                  scope.host?.isDestroyed == false else { return .none }
            return startAtSender ? .component(c) : nextResponder(.component(c))
        case .target:
            guard let target = action.target else { return .none }
            return startAtSender ? target : nextResponder(target)
        case .selector, .block:
            return sender.flatMap { startAtSender ? $0 : nextResponder($0) }
        }
    }

    private func walk(_ action: Action, from start: Responder?, sender: Responder?, _ call: [Value],
                      fromGesture: Bool, onPlan: ((SendPlan) -> Void)?) throws -> Bool {
        let selector = action.selector!
        let entry = tracer?.begin(selector: selector, sender: sender)
        defer { tracer?.end(entry, handledBy: nil) }   // a canPerformAction that raised
        let epoch = callState.pointee.epoch
        // The resolution is a plan if no responder on the way had to be asked.
        var asked = false
        var current = start
        // Taken, not copied: a copy of each responder on the way was a retain and a release.
        while let r = current.take() {
            if let m = try handler(r, action, sender: sender, asked: &asked) {
                if !asked { onPlan?(SendPlan(responder: r, method: m, epoch: epoch)) }
                tracer?.visit(entry, r, handled: true)
                tracer?.deliver(entry, call, types: action.fullTypes, count: m.passedCount(of: call.count))
                defer { tracer?.end(entry, handledBy: r) }
                try callHandler(m, of: r, selector: selector, call)
                return true
            }
            tracer?.visit(entry, r, handled: false)
            current = nextResponder(r)
        }
        tracer?.end(entry, handledBy: nil)
        return try unhandled(action, sender: sender, start: start, fromGesture: fromGesture)
    }

    /// What a responder's class says about a selector without running script code.
    enum Lookup {
        case found(Method)
        case notFound
        /// A `canPerformAction` override or a host responder: the answer can change at any time.
        case mustAsk
    }

    func lookup(_ r: Responder, _ action: Action) -> Lookup {
        let id = action.selectorID, name = action.selector!
        let m: Method?
        switch r {
        case .component(let c):
            guard c.componentClass.canPerformAction == nil else { return .mustAsk }
            m = c.componentClass.method(id: id, name: name)
        case .controller(let k):
            guard k.controllerClass.canPerformAction == nil else { return .mustAsk }
            m = k.controllerClass.method(id: id, name: name)
        case .view:
            m = nil
        case .script:
            return .mustAsk
        }
        return m.map(Lookup.found) ?? .notFound
    }

    /// The method `r` handles the action with, or nil: its `canPerformAction` override if any,
    /// else whether it has the method (looked up by interned selector).
    private func handler(_ r: Responder, _ action: Action, sender: Responder?, asked: inout Bool) throws -> Method? {
        switch lookup(r, action) {
        case .found(let m): return m
        case .notFound: return nil
        case .mustAsk: asked = true
        }
        do { return try ask(r, action, sender: sender) } catch let e as ScriptFailure {
            lastHandlerFailure = HandlerFailure(message: e.message, place: Self.place("canPerformAction", r, action.selector))
            throw e
        }
    }

    /// `r`'s `canPerformAction` override's answer: the method it claims with, or nil.
    private func ask(_ r: Responder, _ action: Action, sender: Responder?) throws -> Method? {
        let id = action.selectorID, name = action.selector!
        switch r {
        case .component(let c):
            guard try c.componentClass.canPerformAction!(c, name, sender) else { return nil }
            return try claimed(c.componentClass.method(id: id, name: name), r, name)
        case .controller(let k):
            guard try k.controllerClass.canPerformAction!(k, name, sender) else { return nil }
            return try claimed(k.controllerClass.method(id: id, name: name), r, name)
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
            throw RuntimeError(.doesNotRespond, "\(r.name) claimed \"\(Excerpt.text(selector))\" in canPerformAction but has no such method; define it or return false")
        }
        return m
    }

    /// `[notMounted]`: a sender that is not in a mounted tree, by its place, with the advice that
    /// fits: a replaced instance of a mounted host (a sender kept from an earlier generation) is
    /// not fixed by mounting (attack atk-mem 14).
    private func notMounted(_ c: Component, _ selector: String, chain: String) -> RuntimeError {
        let what = "\"\(Excerpt.text(selector))\" was sent from \(c.shownPath), which is not mounted, and nothing handled it (chain: \(chain))"
        return RuntimeError(.notMounted, what + "; " + Self.whyNotMounted(c))
    }

    /// Why `c` is not mounted, and what to do: the advice that fits its host and its place
    /// (atk-mem 14, atk-stale 03 and 13: mounting fixes only an unmounted host).
    static func whyNotMounted(_ c: Component, retry: String = "send from the current one (host:find(...)), or use a scope action") -> String {
        guard c.hostLink != nil else {
            return "it was built outside any host's build and belongs to no host: return it from a host's provider or a render, or send from a mounted component"
        }
        guard let host = c.host else {
            let how = c.hostLink?.wasDestroyed == true ? "destroyed, and collected" : "collected: no variable held it"
            return "its host is gone (\(how)): keep the host in a variable while you use its components, and send from a component of a live host"
        }
        if host.isDestroyed { return "its host was destroyed: \(Remedy.makeANewHost) and send from its components" }
        guard host.isMounted else { return "mount the host first, or use a scope action" }
        if !c.isInTree, c.generation >= host.generation {
            return "its host is mounted, but this instance was built and never placed in the tree (no render returned it): return it from a render, or send from a mounted component"
        }
        return "its host is mounted, but this instance is from generation \(c.generation) and a later build replaced it (the host is at generation \(host.generation)): \(retry)"
    }

    private func unhandled(_ action: Action, sender: Responder?, start: Responder?, fromGesture: Bool) throws -> Bool {
        let selector = action.selector ?? "?"
        let visited = start.map { responderChain(from: $0) } ?? []
        let chain = WalkedChainText.text(visited)
        let error: RuntimeError
        if action.kind == .selector, case .component(let c)? = sender, !c.isMounted {
            error = notMounted(c, selector, chain: chain)
        } else {
            // A component sender by its place; a view's send at the code that made the component
            // (and gave it the action), an explicit one at the script's line that sent.
            var from = sender.map { " from \($0.name)" } ?? "", at: String? = fromGesture ? nil : currentLocation()
            if case .component(let c)? = sender {
                from = " from \(c.shownPath) (made in \(c.madeBy.description))"
                if fromGesture || at == nil { at = c.madeBy.definition(in: c.host) }
            }
            error = RuntimeError(.unhandledAction, "nothing handles \"\(Excerpt.text(selector))\"\(from); chain walked: \(chain). Define \(Excerpt.text(selector)) on one of these responders, or set ck.config.unhandledAction", at: at)
        }
        switch unhandledAction {
        case .error: throw error
        case .warn: onWarning(error.id.message(error.detail, at: error.location ?? currentLocation())); return false
        case .ignore: return false
        }
    }

    /// Checks each argument against the action's types and appends the ones that reach the
    /// handler (`forwarded`) converted; a missing trailing one is nil; then the handler's
    /// positions past them get their zeros, so it always receives its full signature.
    func conform(_ count: Int, _ argument: (Int) -> Value, to action: Action, into out: inout [Value]) throws {
        let types = action.types
        if count > types.count {
            throw RuntimeError(.badArgument, "\(action.sendName): \(count) argument\(count == 1 ? "" : "s") after the sender, but the action is typed \(action.describe(types)); pass at most \(types.count)")
        }
        for (i, type) in types.enumerated() {
            let value = i < count ? argument(i) : .nil
            switch try type.check(value, tables: tables, limits: limits, className: classNames(of:)) {
            case .success(let converted): if i < action.forwarded { out.append(converted) }
            case .failure(let m):
                // `argument #1 (Point).y must be number, got string`
                let name = m.path.isEmpty && type.structType == nil ? "" : " (\(type))\(m.path)"
                throw RuntimeError(.badArgument, "\(action.sendName): argument #\(i + 1)\(name) \(m.problem)")
            }
        }
        for type in action.fullTypes.dropFirst(action.forwarded) { out.append(try type.zero(tables: tables, limits: limits)) }
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
