/// Calls controller lifecycle callbacks by name, if the class defines them.
enum Lifecycle {
    static func call(_ controller: Controller, _ name: String, _ arguments: [Value] = []) throws {
        guard !controller.isInvalidated || name == "invalidateController",
              let m = controller.controllerClass.method(name) else { return }
        try m.body(.controller(controller), arguments)
    }
}
