import CKCore
import CLua
import CLuaShims

/// Owns the registry's integer keys (nothing else takes any: no `luaL_ref`) and the arenas
/// (Arenas.swift); outlives every `LuaRef`, so a ref released after the state closed is simply
/// forgotten. Keeping the free list here makes a reference a `rawseti`, where `luaL_ref`
/// measures the registry's length each time (a third of building a component's props).
final class RefStore {
    var L: OpaquePointer?
    private(set) var live = 0
    /// After Lua's own keys (main thread, globals) and the one `luaL_ref` would keep its free list in.
    private var next: Int32 = 4
    private var free: [Int32] = []
    /// The weak-valued index of arenas by id, and the arenas' metatable (their finalizer).
    var arenaIndex: Int32 = 0
    var arenaMetatable: Int32 = 0
    /// Arenas by id (0 unused); an arena takes itself out as it goes.
    var arenas: [Unmanaged<Arena>?] = [nil]
    var freeArenaIDs: [Int32] = []
    /// Arenas found unreachable while Swift still held values in them (see `Arena.rescue`).
    var rescues = 0

    init(L: OpaquePointer) {
        self.L = L
    }

    /// Pops the top value (of `thread`'s stack, the main one by default) into the registry for
    /// as long as the state lives.
    func pin(_ thread: OpaquePointer? = nil) -> Int32 {
        let ref = next
        next += 1
        lua_rawseti(thread ?? L, ckmacros_registryindex(), lua_Integer(ref))
        return ref
    }

    /// Pops the top value of `thread`'s stack (a coroutine's, when a script calls from one)
    /// into `arena`, or into the registry (nil: a value no runtime object owns).
    func make(_ thread: OpaquePointer, type: ScriptType, identity: UInt, in arena: Arena?) -> LuaRef {
        LuaRef(store: self, arena: arena, ref: arena?.take(thread) ?? take(thread), type: type, identity: identity)
    }

    /// Pops the top value of `thread`'s stack into a registry key that `release` frees.
    func take(_ thread: OpaquePointer) -> Int32 {
        let ref: Int32
        if let reused = free.popLast() {
            ref = reused
            lua_rawseti(thread, ckmacros_registryindex(), lua_Integer(ref))
        } else {
            ref = pin(thread)
        }
        live += 1
        return ref
    }

    func release(_ ref: Int32) {
        live -= 1
        guard let L else { return }
        lua_pushnil(L)
        lua_rawseti(L, ckmacros_registryindex(), lua_Integer(ref))
        free.append(ref)
    }
}

/// The Lua types a `LuaRef` carries (a small code: a `String` per reference cost a retain).
enum ScriptType: UInt8 {
    case table, function, string, userdata, thread

    var name: String {
        switch self {
        case .table: "table"
        case .function: "function"
        case .string: "string"
        case .userdata: "userdata"
        case .thread: "thread"
        }
    }
}

/// A script value the core carries: a slot of its owner's arena (or of the registry, for values
/// no runtime object owns), emptied when the core lets go.
final class LuaRef: ScriptRef {
    let store: RefStore
    /// Where the value lives; nil: the registry.
    let arena: Arena?
    let ref: Int32
    let type: ScriptType
    private let pointer: UInt
    /// A component's props (or a view of them Lua passed back): Lua is given them as a
    /// read-only view (`view`, once made; PropsViews.swift), Swift reads the table itself.
    var isProps = false
    var view: Int32 = 0
    /// The class a component's props keep alive in their arena (`Arena.keep`).
    var keptClass: ObjectIdentifier?

    init(store: RefStore, arena: Arena?, ref: Int32, type: ScriptType, identity: UInt) {
        self.store = store
        self.arena = arena
        self.ref = ref
        self.type = type
        pointer = identity
    }

    deinit {
        release(ref)
        if view != 0 { release(view) }
        if let keptClass { arena?.drop(keptClass) }
    }

    override var typeName: String { type.name }
    override var identity: UInt { pointer }

    func push(_ L: OpaquePointer) { push(ref, L) }

    /// Pushes the value kept beside this one in `slot` (`view`).
    func push(_ slot: Int32, _ L: OpaquePointer) {
        if let arena { arena.push(slot, L) } else { lua_rawgeti(L, ckmacros_registryindex(), lua_Integer(slot)) }
    }

    /// Pops the top value into a new slot beside this one (in the same arena), for `view`.
    func keep(_ L: OpaquePointer) -> Int32 { arena?.take(L) ?? store.take(L) }

    private func release(_ slot: Int32) {
        if let arena { arena.release(slot) } else { store.release(slot) }
    }
}
