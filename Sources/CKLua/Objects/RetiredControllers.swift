import CKCore

/// A retired scope keeps its invalidated controller while a script can still ask for it
/// (`ck.controllerOf(c)`, `c.scope.controller` of a removed instance; attack atk-mem 07). The
/// scope, the controller and its last component then hold each other in Swift, which no
/// collector sees: the loop is made only while a handle of one of them is alive, and undone when
/// Lua collects the last of those (`ObjectRegistry.collect`), and never when the controller's
/// own fields reach a table, function or handle (they live in the host's rooted arena: a loop
/// through them would last as long as the host).
extension Ownership {
    func keepsRetired(_ scope: Scope, _ k: Controller) -> Bool {
        guard scope.bridgeSlot != 0 || k.bridgeSlot != 0 || k.component.bridgeSlot != 0 else { return false }
        guard let fields = k.scriptFields as? LuaRef else { return true }
        return fields.holdsOnlyPlainValues(lua.L)
    }
}

extension ObjectRegistry {
    /// After the handle of `object` (of `kind`) was collected: a retired scope it belonged to lets
    /// go of its controller if no handle of the three is left.
    @inline(__always)
    func handleCollected(_ object: RuntimeObject, kind: Int32) {
        switch kind {
        case ObjectKind.component.rawValue:
            if let s = unsafeDowncast(object, to: Component.self).scope, !s.isLive { s.letGoOfRetiredControllerIfUnheld() }
        case ObjectKind.scope.rawValue:
            unsafeDowncast(object, to: Scope.self).letGoOfRetiredControllerIfUnheld()
        case ObjectKind.controller.rawValue:
            let k = unsafeDowncast(object, to: Controller.self)
            if k.isInvalidated, let s = k.scope { s.letGoOfRetiredControllerIfUnheld() }
        default: break
        }
    }
}
