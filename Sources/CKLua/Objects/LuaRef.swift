import CKCore
import CLua
import CLuaShims

/// Owns the registry's integer keys (nothing else takes any: no `luaL_ref`) and the references
/// the core holds; outlives every `LuaRef`, so a ref released after the state closed is
/// simply forgotten. Keeping the free list here makes a reference a `rawseti`, where
/// `luaL_ref` measures the registry's length each time (a third of building a component's props).
final class RefStore {
    var L: OpaquePointer?
    private(set) var live = 0
    /// After Lua's own keys (main thread, globals) and the one `luaL_ref` would keep its free list in.
    private var next: Int32 = 4
    private var free: [Int32] = []

    init(L: OpaquePointer) {
        self.L = L
    }

    /// Pops the top value (of `thread`'s stack, the main one by default) into the registry for
    /// as long as the state lives.
    func pin(_ thread: OpaquePointer? = nil) -> Int32 {
        let ref = next
        next += 1
        lua_rawseti(thread ?? L, ck_registryindex(), lua_Integer(ref))
        return ref
    }

    /// Pops the top value of `thread`'s stack (a coroutine's, when a script calls from one)
    /// into the registry, which all of a state's threads share.
    func make(_ thread: OpaquePointer, typeName: String, identity: UInt) -> LuaRef {
        LuaRef(store: self, ref: take(thread), typeName: typeName, identity: identity)
    }

    /// Pops the top value of `thread`'s stack into a registry key that `release` frees.
    func take(_ thread: OpaquePointer) -> Int32 {
        let ref: Int32
        if let reused = free.popLast() {
            ref = reused
            lua_rawseti(thread, ck_registryindex(), lua_Integer(ref))
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
        lua_rawseti(L, ck_registryindex(), lua_Integer(ref))
        free.append(ref)
    }
}

/// A script value the core carries: a registry reference released when the core lets go.
final class LuaRef: ScriptRef {
    let store: RefStore
    let ref: Int32
    private let name: String
    private let pointer: UInt
    /// The read-only view of a props table, once Lua was given one (PropsViews.swift).
    var view: Int32 = 0

    init(store: RefStore, ref: Int32, typeName: String, identity: UInt) {
        self.store = store
        self.ref = ref
        name = typeName
        pointer = identity
    }

    deinit {
        store.release(ref)
        if view != 0 { store.release(view) }
    }

    override var typeName: String { name }
    override var identity: UInt { pointer }

    func push(_ L: OpaquePointer) { lua_rawgeti(L, ck_registryindex(), lua_Integer(ref)) }
}
