extension Host {
    /// `host:tap(query)`: sends each tap action, then each `touchUpInside` control action, of
    /// the first matching component's view. Returns the number of actions sent.
    public func tap(_ query: String) throws -> Int {
        try checkAlive("tap")
        guard let c = try find(query) else {
            throw RuntimeError(.badQuery, "tap: nothing matches \"\(query)\"; check the query against host:dump()")
        }
        guard let view = c.firstView else { return 0 }
        return try fire(view, tap: true, control: "touchUpInside")
    }

    /// `host:controlEvent(query, name)`: fires the control actions registered for `name`.
    public func controlEvent(_ query: String, _ name: String) throws -> Int {
        try checkAlive("controlEvent")
        guard let c = try find(query) else {
            throw RuntimeError(.badQuery, "controlEvent: nothing matches \"\(query)\"; check the query against host:dump()")
        }
        guard let view = c.firstView else { return 0 }
        return try fire(view, tap: false, control: name)
    }

    private func fire(_ view: View, tap: Bool, control: String) throws -> Int {
        guard let sender = view.component, sender.isMounted else { return 0 }
        var sends: [(Action, Event)] = []
        if tap {
            for a in view.actions where a.kind == .tap {
                if let action = a.action { sends.append((action, Event(type: "tap", view: view))) }
            }
        }
        for a in view.actions {
            if case .control(let events) = a.kind, events.contains(control), let action = a.action {
                sends.append((action, Event(type: control, view: view)))
            }
        }
        return try runtime.perform {
            var sent = 0
            for (action, event) in sends {
                try runtime.send(action.withBehavior(.startAtSender), sender: .component(sender), arguments: [.object(event)])
                sent += 1
            }
            return sent
        }
    }
}
