import CKCore

/// A controller's script fields (`self.x = …`), held by reference while the controller lives.
struct ControllerFields {
    weak var controller: Controller?
    let ref: LuaRef
}
