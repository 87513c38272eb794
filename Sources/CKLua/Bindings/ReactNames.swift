import CKCore

/// React's and Roact's names for what ckrun calls otherwise, one declaration for both checks:
/// a class defining one warns `[suspiciousName]` (`NameCheck.method`), and a call of one on a
/// component or controller whose class does not define it raises `[reactName]` with ckrun's
/// name (`ReactNames.call`; atk-apps3 03: `self:setState{…}` got Lua's bare "attempt to call a
/// nil value").
enum ReactNames {
    /// Where ckrun's equivalent lives.
    enum Place {
        /// A controller's lifecycle method (`didMount`).
        case controllerLifecycle
        /// A setting of the component class (`initialState`).
        case componentSetting
        /// A method every component has (`updateState`); `use` shows the call, `self:` standing
        /// for what it is called on.
        case componentMethod(use: String)
    }

    static let all: [String: (name: String, place: Place)] = [
        "componentDidMount": ("didMount", .controllerLifecycle), "componentWillUnmount": ("willUnmount", .controllerLifecycle),
        "componentWillMount": ("willMount", .controllerLifecycle), "UNSAFE_componentWillMount": ("willMount", .controllerLifecycle),
        "componentDidUpdate": ("didUpdateComponent", .controllerLifecycle), "didUpdate": ("didUpdateComponent", .controllerLifecycle),
        "componentWillUpdate": ("willUpdateComponent", .controllerLifecycle), "UNSAFE_componentWillUpdate": ("willUpdateComponent", .controllerLifecycle),
        "willUpdate": ("willUpdateComponent", .controllerLifecycle), "componentWillReceiveProps": ("willUpdateComponent", .controllerLifecycle),
        "UNSAFE_componentWillReceiveProps": ("willUpdateComponent", .controllerLifecycle),
        "getDerivedStateFromProps": ("willUpdateComponent", .controllerLifecycle), "constructor": ("init", .controllerLifecycle),
        "getInitialState": ("initialState", .componentSetting), "shouldComponentUpdate": ("shouldUpdate", .componentSetting),
        "getDefaultProps": ("initialState", .componentSetting),
        "setState": ("updateState", .componentMethod(use: "self:updateState(value) or self:updateState(function(old) return new end); it replaces the state, it does not merge (return a new table with every field)")),
        "replaceState": ("updateState", .componentMethod(use: "self:updateState(value)")),
        "forceUpdate": ("updateState", .componentMethod(use: "self:updateState(function(s) return s end), which re-renders the scope")),
    ]

    /// A Swift function per name, raising `[reactName]` when called: what a component's (or a
    /// controller's) `__index` answers for a name its class does not define. Made on the first
    /// miss of each name, not at start-up (36 functions cost `ckrun -e ''` 111K instructions).
    static func register(in engine: Engine, onController: Bool) -> Calls { Calls(engine, onController: onController) }

    final class Calls {
        private unowned let engine: Engine
        private let onController: Bool
        private var ids: [String: Int32] = [:]

        init(_ engine: Engine, onController: Bool) { (self.engine, self.onController) = (engine, onController) }

        /// The function for a React name, nil for any other name.
        subscript(name: String) -> Int32? {
            if let id = ids[name] { return id }
            guard let ours = all[name] else { return nil }
            let onController = onController
            let id = engine.functions.registerFunction(name) { args in
                throw RuntimeError(.reactName, callMessage(name, ours, onController: onController), at: args.engine.currentScriptLocation())
            }
            ids[name] = id
            return id
        }
    }

    /// `self:setState(…)` on a component or controller: what ckrun calls it, and how.
    private static func callMessage(_ name: String, _ ours: (name: String, place: Place), onController: Bool) -> String {
        let head = "\(name) is React's name, and neither components nor controllers have it; "
        switch ours.place {
        case .componentMethod(let use):
            return head + "ckrun's is " + (onController ? use.replacing("self:", with: "self.component:") + " (the controller's component holds the state)" : use)
        case .controllerLifecycle:
            return head + "ckrun's is \(ours.name), a lifecycle method of the controller that the runtime calls; define it in ck.controller(…) instead of calling it"
        case .componentSetting:
            return head + "ckrun's is \(ours.name), a setting of the component class (ck.component(name, {\(ours.name) = …})) that the runtime reads"
        }
    }
}
