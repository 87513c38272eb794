import CKCore
import CLua
import CLuaShims

/// Owns the registry references the core holds; outlives every `LuaRef`, so a ref released
/// after the state closed is simply forgotten.
final class RefStore {
    var L: OpaquePointer?
    private(set) var live = 0

    init(L: OpaquePointer) {
        self.L = L
    }

    /// Pops the top value into the registry.
    func make(typeName: String, identity: UInt) -> LuaRef {
        let ref = luaL_ref(L, ck_registryindex())
        live += 1
        return LuaRef(store: self, ref: ref, typeName: typeName, identity: identity)
    }

    func release(_ ref: Int32) {
        live -= 1
        guard let L else { return }
        luaL_unref(L, ck_registryindex(), ref)
    }
}

/// A script value the core carries: a registry reference released when the core lets go.
final class LuaRef: ScriptRef {
    let store: RefStore
    let ref: Int32
    private let name: String
    private let pointer: UInt

    init(store: RefStore, ref: Int32, typeName: String, identity: UInt) {
        self.store = store
        self.ref = ref
        name = typeName
        pointer = identity
    }

    deinit { store.release(ref) }

    override var typeName: String { name }
    override var identity: UInt { pointer }

    func push(_ L: OpaquePointer) { lua_rawgeti(L, ck_registryindex(), lua_Integer(ref)) }
}
