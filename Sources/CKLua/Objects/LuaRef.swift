import CKCore
import CLua
import CLuaShims

/// Owns the registry's integer keys (nothing else takes any: no `luaL_ref`) and the arenas
/// (Arenas.swift); outlives every `LuaRef`, so a ref released after the state closed is simply
/// forgotten. Keeping the free list here makes a reference a `rawseti`, where `luaL_ref`
/// measures the registry's length each time (a third of building a component's props).
final class RefStore {
    var L: OpaquePointer?
    /// The engine's record of the thread running now (`LuaState.currentThread`), for reads.
    var currentThread: UnsafeMutablePointer<OpaquePointer?>?
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
    /// The values all live arenas hold, kept as each arena's count changes (`Arena.live`), so
    /// `ck.stats()` reads a counter, never walks the arenas (one a host and a class).
    var arenaValues = 0
    /// Arenas found unreachable while Swift still held values in them (see `Arena.rescue`).
    var rescues = 0
    /// The same for arenas that expect it (`Arena.expectsRescue`).
    var expectedRescues = 0
    /// Arenas whose table holds an eighth of its peak (`Arena.shrink`): sized again at the next
    /// call into ck (a finalizer, where most slots are given back, cannot).
    var arenasDueToShrink: [Int32] = []

    /// Sizes again the tables of `arenasDueToShrink` (not from a finalizer: those stay listed).
    @inline(never)
    func shrinkDueArenas(_ L: OpaquePointer) {
        let due = arenasDueToShrink
        arenasDueToShrink.removeAll()
        for id in due where Int(id) < arenas.count {
            arenas[Int(id)]?.takeUnretainedValue().shrinkIfDue(L)
        }
    }

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
    // Layout (a scoped leaf's props hold one): the Int32s first, the bytes last: 48 bytes.
    private(set) var ref: Int32
    /// The read-only view Lua is given (0 until made); see `isProps`.
    var view: Int32 = 0
    /// The arena the value lives in, the store whose registry keys hold it, or the spec whose
    /// arena slot this reference borrows (and which it keeps alive): one field for the three.
    private var home: AnyObject
    private let pointer: UInt
    let type: ScriptType
    private let homeKind: HomeKind
    /// A component's props (or a view of them Lua passed back): Lua is given them as a
    /// read-only view (`view`, once made; PropsViews.swift), Swift reads the table itself.
    var isProps = false
    /// Props C found to reach nothing when they were built (ckclass.c): a table changed after
    /// the fact is the script's to build anew (api.md), so the burial trusts it.
    var isPlain = false
    /// The arena slot of the class handle a component's props keep alive (`Arena.keep`; 0: none).
    var keptClassSlot: Int32 = 0

    private enum HomeKind: UInt8 { case store, arena, borrowed }

    init(store: RefStore, arena: Arena?, ref: Int32, type: ScriptType, identity: UInt) {
        home = arena ?? store
        homeKind = arena != nil ? .arena : .store
        self.ref = ref
        self.type = type
        pointer = identity
    }

    /// A reference to the table in the arena slot `ref` that `spec` owns: `spec` is kept alive
    /// while this lives, and nothing is released here.
    init(borrowing ref: Int32, of spec: ArenaViewSpec, identity: UInt) {
        home = spec
        homeKind = .borrowed
        self.ref = ref
        type = .table
        pointer = identity
    }

    deinit {
        guard homeKind != .borrowed else { return }
        release(ref)
        if view != 0 { release(view) }
        if keptClassSlot != 0 { arena?.drop(keptSlot: keptClassSlot) }
    }

    /// Where the value lives; nil: the registry.
    var arena: Arena? {
        switch homeKind {
        case .arena: unsafeDowncast(home, to: Arena.self)
        case .borrowed: unsafeDowncast(home, to: ArenaViewSpec.self).arena
        case .store: nil
        }
    }
    var store: RefStore { arena?.store ?? unsafeDowncast(home, to: RefStore.self) }

    override var typeName: String { type.name }

    /// A string's bytes, read on the thread running now (a name or a query of a scope whose id
    /// is not UTF-8: attack atk-repl 13). Raw reads only.
    override func stringBytes(upTo limit: Int) -> (bytes: [UInt8], count: Int)? {
        guard type == .string, let main = store.L, case let L = store.currentThread?.pointee ?? main, ckstack_checkstack(L, 2) != 0 else { return nil }
        push(L)
        defer { lua_settop(L, -2) }
        var length = 0
        guard lua_type(L, -1) == LUA_TSTRING, let chars = ckmacros_tostring(L, -1, &length) else { return nil }
        return (Array(UnsafeRawBufferPointer(start: chars, count: min(length, max(0, limit)))), length)
    }
    override var identity: UInt { pointer }

    /// Read only for a message (a block action's error), on the thread running now.
    override var definition: String? {
        guard type == .function, let main = store.L, case let L = store.currentThread?.pointee ?? main, ckstack_checkstack(L, 2) != 0 else { return nil }
        push(L)
        var ar = lua_Debug()
        guard lua_type(L, -1) == LUA_TFUNCTION, lua_getinfo(L, ">S", &ar) != 0, ar.linedefined > 0 else {
            lua_settop(L, -2)
            return nil
        }
        return withUnsafeBytes(of: &ar.short_src) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) } + ":\(ar.linedefined)"
    }

    func push(_ L: OpaquePointer) { push(ref, L) }

    /// Pushes the value kept beside this one in `slot` (`view`).
    func push(_ slot: Int32, _ L: OpaquePointer) {
        if let arena { arena.push(slot, L) } else { lua_rawgeti(L, ckmacros_registryindex(), lua_Integer(slot)) }
    }

    /// Whether the value is a table whose keys and values reach nothing (strings, numbers, booleans).
    func holdsOnlyPlainValues(_ L: OpaquePointer) -> Bool {
        if let arena { return arena.holdsPlainTable(at: ref, L) }
        push(L)
        defer { lua_settop(L, -2) }
        return ckarenas_is_plain_table(L, -1) != 0
    }

    /// Moves the value, its view and the class handle it keeps from its arena to `grave`
    /// (`Ownership.bury`); `cls` is the class whose handle `keptClassSlot` holds.
    func move(to grave: Arena, keepingHandleOf cls: ObjectIdentifier, _ L: OpaquePointer) {
        guard homeKind == .arena else { return }
        let from = unsafeDowncast(home, to: Arena.self)
        ref = from.move(ref, to: grave, L)
        if view != 0 { view = from.move(view, to: grave, L) }
        if keptClassSlot != 0 {
            let slot = grave.keep(cls, L) { from.push(keptClassSlot, L) }
            from.drop(keptSlot: keptClassSlot)
            keptClassSlot = slot
        }
        home = grave
    }

    /// Pops the top value into a new slot beside this one (in the same arena), for `view`.
    func keep(_ L: OpaquePointer) -> Int32 { arena?.take(L) ?? store.take(L) }

    private func release(_ slot: Int32) {
        if let arena { arena.release(slot) } else { store.release(slot) }
    }
}
