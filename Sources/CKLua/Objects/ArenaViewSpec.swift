import CKCore
import CLua

/// A view function's spec whose plain attributes (the copy `viewSpec` made) the spec keeps in a
/// slot of the building host's arena itself: no `LuaRef` a row beside the spec (create 1,000
/// keyed rows made 1,000 of each). The attributes become a reference only when read (a
/// script's `view.attributes`, a dump), once; that reference has a slot of its own, so a value
/// read from the spec outlives it safely.
final class ArenaViewSpec: ViewSpec {
    private let arena: Arena
    private let slot: Int32
    private var read: Value?

    /// Pops the table on top of `L` into `arena`.
    init(viewClass: String, popping L: OpaquePointer, into arena: Arena) {
        self.arena = arena
        slot = arena.take(L)
        super.init(viewClass: viewClass)
    }

    deinit { arena.release(slot) }

    override var attributes: Value {
        if let read { return read }
        guard let L = arena.store.L else { return .nil }
        arena.push(slot, L)
        guard lua_type(L, -1) == LUA_TTABLE else {
            lua_settop(L, -2)
            return .nil
        }
        let made = Value.table(arena.store.make(L, type: .table, identity: UInt(bitPattern: lua_topointer(L, -1)), in: arena))
        read = made
        return made
    }
}
