extension Host {
    /// `host:tap(query)`: sends what the first matching component's view sends for each of
    /// `Gesture.hostTap` (each tap action, then each `touchUpInside` control action). Returns
    /// the number of actions sent.
    public func tap(_ query: String) throws -> Int {
        try checkAlive("tap")
        guard let c = try find(query) else {
            throw noMatch("tap", query)
        }
        return try tapFirstView(of: c, query: query)
    }

    /// The one tap of every form (query, component, the REPL's `.tap`, the live view): fires
    /// `c`'s first view and warns `[nothingTapped]` when it sent nothing while views below would
    /// (atk-new2 03: a component's tap was silent where its query's warned). `query` finds `c`.
    private func tapFirstView(of c: Component, query: String) throws -> Int {
        guard let view = c.firstView else { return 0 }
        let sent = try fire(view, Gesture.hostTap)
        if sent == 0, c.isMounted { warnTappableBelow(c, query: query, tapped: view) }
        return sent
    }

    /// A query that finds `c` in its tree: its placed labels from the root, `A > B > Row#a`.
    private static func placedQuery(_ c: Component) -> String {
        var steps: [String] = []
        var node: Component? = c
        while let s = node { steps.append(Component.placedLabel(.live(s))); node = s.parent }
        return steps.reversed().joined(separator: " > ")
    }

    /// `[nothingTapped]`: the query's first view sends nothing for a tap, and views below it
    /// would (atk-apps: `.tap Row#a` tapped the row's label, "0 actions sent", with its buttons
    /// a level down). Names up to three, each with a query that taps it.
    private func warnTappableBelow(_ c: Component, query: String, tapped: View) {
        var found: [Component] = [], more = false
        var stack = [c]
        while let n = stack.popLast() {
            if let v = n.view, v !== tapped, Gesture.hostTap.contains(where: { !v.sends(for: $0).isEmpty }) {
                if found.count == 3 { more = true; break }
                found.append(n)
            }
            stack.append(contentsOf: n.children.reversed())
        }
        guard !found.isEmpty else { return }
        let queries = found.map { f -> String in
            var steps: [String] = []
            var node: Component? = f
            while let s = node, s !== c { steps.append(Component.placedLabel(.live(s))); node = s.parent }
            return "\"\(Excerpt.text(query)) > \(steps.reversed().joined(separator: " > "))\""
        }
        let what = Article.with(tapped.viewClass) + (tapped.component.map { " of \($0.label)" } ?? "")
        runtime.onWarning(Catalogue.nothingTapped.message("tap(\"\(Excerpt.text(query))\") tapped the first view at or below \(c.shownPath), \(what), which sends nothing for a tap; below it \(found.count == 1 && !more ? "this view could be tapped" : "these could be tapped"): \(queries.joined(separator: ", "))\(more ? ", …" : ""); tap one of them by its query", at: runtime.currentLocation()))
    }

    /// A tap on `component`'s view (the first at or below it), as `host:tap` taps the component
    /// its query finds: a live view taps the component under the focus or the mouse.
    public func tap(_ component: Component) throws -> Int {
        try checkAlive("tap")
        guard try isMountedTarget(component, "tap") else { return 0 }
        return try tapFirstView(of: component, query: Self.placedQuery(component))
    }

    /// A tap on a view: the view stands for the component mounted in it now, the handle that
    /// survives rebuilds (a component from `find` goes stale when its parent rebuilds; the view
    /// it had is kept by its successor at the same place: atk-apps2 16).
    public func tap(_ view: View) throws -> Int {
        try checkAlive("tap")
        guard let c = try mountedComponent(of: view, "tap") else { return 0 }
        return try tap(c)
    }

    /// `host:controlEvent(view, name)`: as for the component mounted in `view` now.
    public func controlEvent(_ view: View, _ name: String, text: String? = nil) throws -> Int {
        try checkAlive("controlEvent")
        guard let c = try mountedComponent(of: view, "controlEvent") else { return 0 }
        return try controlEvent(c, name, text: text)
    }

    /// The component mounted in `view`; a view no longer mounted sends nothing and says so, as
    /// a stale component does (`[notMounted]`, under `ck.config.unhandledAction`).
    private func mountedComponent(of view: View, _ method: String) throws -> Component? {
        if view.hostingHost != nil {
            throw RuntimeError(.badArgument, "host:\(method): a host's hosting view stands for no component; \(method) a component's view (host:find(...).view) or a query")
        }
        if let c = view.component { return c }
        guard isMounted else { return nil }
        try reportNotMounted(RuntimeError(.notMounted, "host:\(method) was given \(Article.with(view.viewClass)) view that is not mounted any more (the component it showed left the tree), so nothing was sent; \(method) a view on screen (host:find(...).view)"))
        return nil
    }

    /// Whether `component`, given where a query goes, is mounted in this host's tree. One of no
    /// host, another host or a host that is gone is `[badArgument]`; one a later build replaced
    /// (or never placed) sends nothing and says why, as a send from it would (`[notMounted]`,
    /// under `ck.config.unhandledAction`): a test that taps a held button twice learns it is stale
    /// (atk-stale 04, 14).
    private func isMountedTarget(_ c: Component, _ method: String) throws -> Bool {
        guard c.host === self else {
            let whose = c.hostLink == nil ? "was built outside any host's build" : c.host == nil ? "belongs to a host that is gone" : "belongs to another host"
            throw RuntimeError(.badArgument, "host:\(method): \(c.shownPath) \(whose); \(method) a component of this host (host:find(...)), or call \(method) on its own host")
        }
        guard !c.isMounted, isMounted else { return true }
        try reportNotMounted(RuntimeError(.notMounted, "host:\(method) was given \(c.shownPath), which is not mounted, so nothing was sent; " + Runtime.whyNotMounted(c, retry: "\(method) the current one (host:find(...)), or hold its view (host:find(...).view), which the rebuilt component keeps")))
        return false
    }

    /// A target that sends nothing as it is not mounted: raised, warned or ignored as
    /// `ck.config.unhandledAction` says.
    private func reportNotMounted(_ error: RuntimeError) throws {
        switch runtime.unhandledAction {
        case .error: throw error
        case .warn: runtime.onWarning(error.id.message(error.detail, at: runtime.currentLocation()))
        case .ignore: break
        }
    }

    /// `[noMatch]` for `query`; when it names the view class of a mounted view (`UITextField`),
    /// a hint that queries match components, not view classes (atk-text 05).
    func noMatch(_ operation: String, _ query: String) -> RuntimeError {
        var message = "\(operation): nothing matches \"\(Excerpt.text(query))\"; check the query against host:dump()"
        if let holder = mountedComponent(withViewClass: query) {
            message += "; queries match component names, not view classes: a ck.View{class = \"\(Excerpt.text(query))\"} is \(holder.shownName): try \"\(Excerpt.text(holder.shownName))\" or a key"
        }
        return RuntimeError(.noMatch, message)
    }

    private func mountedComponent(withViewClass viewClass: String) -> Component? {
        var pending = root.map { [$0] } ?? []
        while let c = pending.popLast() {
            if c.view?.viewClass == viewClass { return c }
            pending += c.children.reversed()
        }
        return nil
    }

    /// `host:controlEvent(query, name, text)`: fires the control actions registered for `name`,
    /// each with an `Event` whose `text` is `text` (a text field's whole text, or nil).
    public func controlEvent(_ query: String, _ name: String, text: String? = nil) throws -> Int {
        try checkAlive("controlEvent")
        guard let c = try find(query) else {
            throw noMatch("controlEvent", query)
        }
        guard let view = c.firstView else { return 0 }
        warnIfUnknown(name, on: view)
        return try fire(view, [.control(name)], text: text)
    }

    /// `host:controlEvent(component, name)`: as for a query that found `component` (0 when it is
    /// not in this host's tree any more).
    public func controlEvent(_ component: Component, _ name: String, text: String? = nil) throws -> Int {
        try checkAlive("controlEvent")
        guard try isMountedTarget(component, "controlEvent"), let view = component.firstView else { return 0 }
        warnIfUnknown(name, on: view)
        return try fire(view, [.control(name)], text: text)
    }

    /// `[unknownEvent]`: `name` is no UIControl event and `view` registers no control action
    /// for it, so nothing is sent (0, SPEC §7): said, naming the events there are. A UIControl
    /// event the view has no action for sends nothing quietly (a field without an
    /// `editingDidBegin` action), as UIKit does.
    private func warnIfUnknown(_ name: String, on view: View) {
        guard !Gesture.uiControlEvents.contains(name) else { return }
        let own = view.actions.filter { $0.kind == .control }.flatMap { $0.gestures.map(\.name) }
        guard !own.contains(name) else { return }
        var owned: [String] = []
        for event in own where !Gesture.uiControlEvents.contains(event) && !owned.contains(event) { owned.append(event) }
        let whose = "the \(Excerpt.text(view.viewClass)) view" + (view.component.map { " of \($0.shownPath)" } ?? "")
        let its = owned.isEmpty ? "" : "; its own: " + owned.map { "\"\(Excerpt.text($0))\"" }.joined(separator: ", ")
        runtime.onWarning(Catalogue.unknownEvent.message(
            "host:controlEvent(…, \"\(Excerpt.text(name))\") sent nothing: no UIControl event has that name and \(whose) registers no control action for it; UIControl's events: \(Gesture.uiControlEvents.joined(separator: ", "))\(its)",
            at: runtime.currentLocation()))
    }

    /// Sends, for each gesture in order, what the view sends for it, each with an `Event` of
    /// the gesture's name. The sender is the view's mounted component at each send (SPEC §7): a
    /// handler may rebuild, unmount or destroy the host, so it is asked again before every
    /// action, and a view with no mounted component (or a host that ended) sends nothing more.
    private func fire(_ view: View, _ gestures: [Gesture], text: String? = nil) throws -> Int {
        guard mountedSender(of: view) != nil else { return 0 }
        var sends: [(Action, Event)] = []
        for gesture in gestures {
            for action in view.spec.sends(for: gesture) { sends.append((action, Event(type: gesture.name, view: view, text: text))) }
        }
        return try runtime.perform {
            var sent = 0
            for (action, event) in sends {
                guard let sender = mountedSender(of: view) else { break }
                runtime.nextSendIsGesture = true
                try runtime.send(action.withBehavior(.startAtSender), sender: .component(sender), arguments: [.object(event)])
                sent += 1
            }
            return sent
        }
    }

    /// The component mounted in `view` now, if this host still lives: the one sender of a tap.
    private func mountedSender(of view: View) -> Component? {
        guard !isDestroyed, !isDestroying, let c = view.component, c.isMounted, c.host === self else { return nil }
        return c
    }
}
