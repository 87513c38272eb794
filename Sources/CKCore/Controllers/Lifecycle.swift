/// Calls controller lifecycle callbacks by name, if the class defines them.
enum Lifecycle {
    static func call(_ controller: Controller, _ name: String, _ arguments: [Value] = []) throws {
        guard !controller.isInvalidated || name == "invalidateController",
              let m = controller.controllerClass.method(name) else { return }
        guard let runtime = controller.scope?.host?.runtime else { return try m.body(.controller(controller), arguments) }
        try runtime.runCallback("\(controller.controllerClass.name).\(name)") {
            try m.body(.controller(controller), arguments)
        }
    }
}
