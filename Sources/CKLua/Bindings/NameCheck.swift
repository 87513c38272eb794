import CKCore

/// Mistakes that would otherwise pass in silence: a method whose name is a letter or two from
/// a lifecycle method's or a special key's (`didMout`, `rendr`), and props a built-in does not
/// read (`ck.Button{onTap = …}`). Each warns once, as a catalogued `[id]` warning through
/// `ck.config.onWarning`.
enum NameCheck {
    /// What the runtime calls on controllers by name.
    static let lifecycle = ["init", "didInit", "willMount", "didMount", "willRemount", "didRemount",
                            "willUnmount", "didUnmount", "willUpdateComponent", "didUpdateComponent",
                            "componentDidAcquireView", "componentWillRelinquishView", "componentTreeWillAppear",
                            "componentTreeDidDisappear", "invalidateController"]

    static func method(_ name: String, of c: ClassConfigurator) {
        if let ours = ReactNames.all[name] {
            warn(c.engine, .suspiciousName, "\(c.definer): \"\(Excerpt.text(name))\" is React's name, and nothing in ckrun calls it; "
                 + equivalent(ours, of: c), L: c.L)
        } else if c.controller != nil, let setting = ClassConfigurator.specialKeys[name], !setting.controllers {
            warn(c.engine, .suspiciousName, "\(c.definer): \"\(Excerpt.text(name))\" is a setting of component classes, so on a controller "
                 + "nothing calls it; put it in ck.component(\"\(Excerpt.text(componentName(of: c)))\", {...})", L: c.L)
        } else {
            misspelled(name, of: c)
        }
    }

    /// Where ckrun's equivalent of a React name goes, for `c`.
    private static func equivalent(_ ours: (name: String, place: ReactNames.Place), of c: ClassConfigurator) -> String {
        switch ours.place {
        case .controllerLifecycle:
            let controller = c.controller?.name ?? componentName(of: c) + "Controller"
            return "ckrun's is \"\(Excerpt.text(ours.name))\", a lifecycle method of the controller: ck.controller(\"\(Excerpt.text(controller))\", {\(ours.name) = function(self) ... end})"
        case .componentMethod(let use):
            return "ckrun's is \"\(Excerpt.text(ours.name))\", a method every component has: \(use)"
        case .componentSetting: break
        }
        return "ckrun's is \"\(Excerpt.text(ours.name))\", a setting of the component class: ck.component(\"\(Excerpt.text(componentName(of: c)))\", {\(ours.name) = ...})"
    }

    /// The component class a controller serves by name (`InboxController` → `Inbox`).
    private static func componentName(of c: ClassConfigurator) -> String {
        guard c.controller != nil else { return c.name }
        return c.name.hasSuffix("Controller") && c.name.count > 10 ? String(c.name.dropLast(10)) : c.name
    }

    private static func misspelled(_ name: String, of c: ClassConfigurator) {
        if c.controller != nil {
            guard !lifecycle.contains(name), let near = nearest(name, in: lifecycle) else { return }
            warn(c.engine, .suspiciousName, "\(c.definer): \"\(Excerpt.text(name))\" is not a lifecycle method, so nothing calls it by that name; did you mean \"\(Excerpt.text(near))\"?", L: c.L)
        } else if lifecycle.contains(name) {
            // Spelt right, in the wrong place (attack atk-mem 12: "looks like" itself, "did you mean").
            let controller = componentName(of: c) + "Controller"
            warn(c.engine, .suspiciousName, "\(c.definer): \"\(Excerpt.text(name))\" is a controller lifecycle method, and nothing calls it on a component class; define it in ck.controller(\"\(Excerpt.text(controller))\", {\(name) = function(self) ... end})", L: c.L)
        } else if let near = nearest(name, in: lifecycle) {
            warn(c.engine, .suspiciousName, "\(c.definer): \"\(Excerpt.text(name))\" looks like the lifecycle method \"\(Excerpt.text(near))\", which only controllers get; did you mean to define \"\(Excerpt.text(near))\" on a ck.controller?", L: c.L)
        } else if let near = nearest(name, in: ClassConfigurator.order) {
            warn(c.engine, .suspiciousName, "\(c.definer): \"\(Excerpt.text(name))\" becomes a method, not a setting; did you mean \"\(Excerpt.text(near))\"?", L: c.L)
        }
    }

    /// A component class given a built-in's name (`ck.component("Button", …)`, React's habit of
    /// wrapping the platform's button): the name then means two classes to queries, dumps and
    /// the live view, though each class keeps its own controller (built-ins take none by name).
    static func builtinName(_ name: String, engine: Engine, L: OpaquePointer) {
        guard Builtin.all.contains(where: { $0.name == name }) else { return }
        warn(engine, .suspiciousName, "ck.component(\"\(name)\"): \(name) is the name of the built-in ck.\(name), so queries (\"\(name)\"), "   // bounded: a built-in's name
             + "app:dump(), .tree and ckrun tree would name both classes alike; give yours a name of its own (App\(name), Save\(name))",
             L: L)
    }

    /// Warns about the props of built-in `c` that it does not read (once per class and prop), at
    /// the script's `Class(props)` on `L`.
    static func props(of c: Component, known: [String], engine: Engine, L: OpaquePointer) {
        guard case .table(let ref) = c.props, engine.scriptTables.hasKey(of: ref, outside: known) else { return }
        let (names, others) = engine.scriptTables.names(of: ref)
        // `ck.Stack{A{}, B{}}`, `ck.Text{"hi"}`: JSX's and Roact's children and text are
        // positional; a built-in reads only named props, so these showed nothing, silently.
        if others {
            let hint = known.contains("children") ? "put children in children = {…}"
                : "name them, as ck.\(c.shownName){\(known.first ?? "key") = …}"
            warn(engine, .unknownProp, "ck.\(c.shownName){…}: \(c.shownName) reads only named props, so entries at keys that are not names (ck.\(c.shownName){x, y}) are dropped; \(hint); its props are \(known.joined(separator: ", "))",
                 L: L, once: "positional \(c.shownName)")
        }
        // Sorted: a table's traversal order is seeded per process, and so would the warnings be.
        for key in names.filter({ !known.contains($0) }).sorted() {
            let hint = nearest(key, in: known).map { "did you mean \"\(Excerpt.text($0))\"? " } ?? ""
            warn(engine, .unknownProp, "ck.\(c.shownName){\(Excerpt.text(key)) = …}: \(c.shownName) has no prop \"\(Excerpt.text(key))\"; \(hint)its props are \(known.joined(separator: ", "))",
                 L: L, once: "prop \(c.shownName).\(key)")
        }
    }

    /// Warns (once per place and key) that the component at key `shownKey` (as a message shows it) of built-in `name`'s list
    /// `prop` is no child: the script's `Class(props)` on `L` is the place.
    static func droppedChild(shownKey: String, of name: String, prop: String, engine: Engine, L: OpaquePointer) {
        let place = SwiftCall.location(on: L, level: 1) ?? ""
        warn(engine, .droppedChild, "ck.\(name){\(prop) = {[\(shownKey)] = …}}: the component at key \(shownKey) is not a child, "
             + "only entries at 1, 2, 3, … are; put it in the list", L: L, once: "child \(name).\(prop)[\(shownKey)] \(place)")
    }

    private static func warn(_ engine: Engine, _ id: Catalogue, _ text: String, L: OpaquePointer? = nil, once key: String? = nil) {
        guard engine.warnedOnce.insert(key ?? text).inserted else { return }
        engine.keepForGood(key ?? text)
        engine.warn(id.message(text, at: L.flatMap { SwiftCall.location(on: $0, level: 1) }))
    }

    /// UIControl's events (UIControl.Event), the ones ckrun and the live view send by name.
    static var controlEvents: [String] { Gesture.uiControlEvents }

    /// A control event name that differs from a UIControl event's only in case or by a letter or
    /// two (`editingchanged`): nothing would send it. Other names are an app's own events (SPEC:
    /// any name may be sent by `host:controlEvent`) and pass. Warns once per name.
    static func controlEvents(_ names: [String], engine: Engine, L: OpaquePointer?) {
        for name in names where !controlEvents.contains(name) {
            guard let near = controlEvents.first(where: { $0.lowercased() == name.lowercased() }) ?? nearest(name, in: controlEvents) else { continue }
            warn(engine, .suspiciousName, "control event \"\(Excerpt.text(name))\" is not a UIControl event, and nothing in the live view sends it; did you mean \"\(Excerpt.text(near))\"?",
                 L: L, once: "controlEvent " + name)
        }
    }

    static func nearest(_ name: String, in candidates: [String]) -> String? { NearName.nearest(name, in: candidates) }
}
