import CKCore
import CLua

/// A view function's spec whose plain attributes (the copy `viewSpec` made) the spec keeps in a
/// slot of the building host's arena itself: no `LuaRef` a row beside the spec (create 1,000
/// keyed rows made 1,000 of each). A read of the attributes (a script's `view.attributes`, a
/// dump) gets a reference that borrows the slot and keeps the spec, so it outlives the spec
/// safely and the arena grows no slot for it.
final class ArenaViewSpec: ViewSpec {
    let arena: Arena
    private let slot: Int32
    private let identity: UInt

    /// Pops the table on top of `L` into `arena`.
    init(viewClass: String, popping L: OpaquePointer, into arena: Arena) {
        self.arena = arena
        identity = UInt(bitPattern: lua_topointer(L, -1))
        slot = arena.take(L)
        super.init(viewClass: viewClass)
    }

    deinit { arena.release(slot) }

    override var attributes: Value { .table(LuaRef(borrowing: slot, of: self, identity: identity)) }
}
