import CKCore

/// Names the runtime answers before a class's own: on an instance (`c.props`, `c:updateState`,
/// a controller's `self.component`) and on a class (`Row.name`). A method or field so named
/// would never be reached (a controller's `component` method was its component, a component's
/// `updateState` never ran, `Row.name = "Other"` was dropped): defining one is `[badArgument]`
/// (atk-ck3 10), as assigning a controller's runtime field is.
enum RuntimeNames {
    /// What a component instance answers itself (`ComponentBinding.index`); `scope` and `view`
    /// are the class's settings, which never get here.
    static let component: Set<String> = ["props", "state", "class", "name", "key", "scope", "generation", "path", "view",
                                         "isMounted", "updateState", "action"]

    /// Refuses `key` for a method or field of the class `c` configures when the runtime answers it.
    static func check(_ key: String, of c: ClassConfigurator) throws {
        let what: String
        if key == "name" {
            what = "the class's name, which \(c.definer) set (\(Excerpt.text(c.name)).name), and the name of its instances"
        } else if c.component != nil, component.contains(key) {
            what = "what the runtime gives every \(Excerpt.text(c.name)) instance (self.\(key))"
        } else if c.controller != nil, ControllerBinding.runtimeFields.contains(key) {
            what = "what the runtime sets on every \(Excerpt.text(c.name)) (self.\(key))"
        } else {
            return
        }
        throw RuntimeError(.badArgument, "\(c.definer): \"\(Excerpt.text(key))\" is \(what), so a method or field of that name would never be reached; rename it (\(Excerpt.text(suggested(key, of: c))), for example)")
    }

    /// `rowUpdateState` for `updateState` on `Row`: the class's name before the key.
    private static func suggested(_ key: String, of c: ClassConfigurator) -> String {
        let owner = c.name.prefix(1).lowercased() + c.name.dropFirst()
        return owner + key.prefix(1).uppercased() + key.dropFirst()
    }
}
