/// Calls controller lifecycle callbacks by name, if the class defines them.
enum Lifecycle {
    /// `runtime`: given by the builds' callers (mounting, a build's commit), where a flush's
    /// `[updateLoop]` may need to name the callback.
    /// Ends a controller once (its scope left, or its host ends): one told the tree appeared is
    /// told it disappeared first, as a view controller leaving a window is, so the pair holds.
    static func invalidate(_ k: Controller, keep: (() throws -> Void) -> Void) {
        guard !k.isInvalidated else { return }
        if k.hasAppeared {
            k.hasAppeared = false
            keep { try call(k, "componentTreeDidDisappear") }
        }
        k.isInvalidated = true
        if k.handleIsKept { k.component.host?.runtime.ended(k) }
        keep { try call(k, "invalidateController") }
    }

    static func call(_ controller: Controller, _ name: String, _ arguments: [Value] = [], in runtime: Runtime? = nil) throws {
        guard !controller.isInvalidated || name == "invalidateController",
              let m = controller.controllerClass.method(name) else { return }
        // Names are made only when an error or the update-loop watch needs them.
        func callback() -> String { "\(controller.controllerClass.shownName).\(name)" }
        try ScriptErrors.attributed(.callbackFailed, "\(callback()) of \(controller.component.shownPath)") {
            guard let runtime else { return try m.body(.controller(controller), arguments) }
            try runtime.runCallback(callback()) { try m.body(.controller(controller), arguments) }
        }
    }
}
