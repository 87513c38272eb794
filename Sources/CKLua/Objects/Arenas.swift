import CKCore
import CLua
import CLuaShims

/// The script values one runtime object owns (a host and its tree, a class, a component built
/// outside any build), as slots of a Lua table (ckarenas.c). Lua reaches the table through the
/// handles that carry it as a user value (the owner's, and those of objects whose values live
/// there), so its collector sees every edge; the registry pins it only while the core roots the
/// owner (`roots`: a tracked host, a registered class) or before the owner has a handle.
/// Values live as long as the table: a table found unreachable while Swift still holds values in
/// it is pinned again until they go (`rescue`), so a value the core holds is never lost.
final class Arena: ScriptArena {
    let store: RefStore
    let id: Int32
    /// The object whose handle keeps the table (0 until known).
    var owner: ObjectIdentifier?
    private(set) var table: UInt
    private var next: Int32 = 1
    private var free: [Int32] = []
    /// Slots in use, and counted in the store's total.
    private(set) var live = 0 {
        didSet {
            store.arenaValues &+= live &- oldValue
            if live > highWater { highWater = live }
        }
    }
    /// The most slots in use at once since the table was last sized (`shrinkIfDue`).
    private var highWater = 0
    /// The table holds an eighth of its peak: sized again at the next slot taken.
    private var dueToShrink = false
    /// Registry key while pinned (then the table's fastest way in: `ckarenas_pinned_get`).
    private var pin: Int32 = 0
    /// Why the core roots the owner (a tracked or running host, a registered class, live controllers).
    var roots = 0 { didSet { updatePin() } }
    /// Whether the owner's handle carries the table.
    private var adopted = false
    private var rescued = false
    /// Swift objects may outlive the handles that carry this table by design (a grave of what a
    /// build replaced, Burial.swift; a block action's, whose view keeps it): Lua finalizes them
    /// in one collection in any order, so a rescue here is expected (`expectedRescues`).
    var expectsRescue = false
    /// Class handles kept for the props of components built here: one slot per class, counted
    /// by the props that need it. Builds run in runs of a class: the class of the run is
    /// `current` (scalars, so counting it costs no array uniqueness check), the others `kept`.
    private var current: KeptClass?
    private var kept: [KeptClass] = []
    private typealias KeptClass = (cls: ObjectIdentifier, slot: Int32, count: Int32)

    /// A new arena, pinned until its owner's handle carries it.
    init(store: RefStore, _ L: OpaquePointer) {
        self.store = store
        id = store.freeArenaIDs.popLast() ?? Int32(store.arenas.count)
        if Int(id) == store.arenas.count { store.arenas.append(nil) }
        ckarenas_new(L, store.arenaIndex, lua_Integer(id), store.arenaMetatable)
        table = UInt(bitPattern: lua_topointer(L, -1))
        super.init()
        store.arenas[Int(id)] = Unmanaged.passUnretained(self)
        lua_settop(L, -2)
        updatePin()
    }

    deinit {
        store.arenaValues &-= live
        store.arenas[Int(id)] = nil
        store.freeArenaIDs.append(id)
        guard let L = store.L else { return }
        if pin != 0 { store.release(pin) }
        ckarenas_forget(L, store.arenaIndex, lua_Integer(id))
    }

    /// Pops the top value of `thread` into a slot.
    func take(_ thread: OpaquePointer) -> Int32 {
        if dueToShrink { shrink(thread) }
        let slot: Int32
        if let reused = free.popLast() { slot = reused } else { slot = next; next += 1 }
        if pin != 0 {
            ckarenas_pinned_set(thread, pin, lua_Integer(slot))
        } else if ckarenas_set(thread, store.arenaIndex, lua_Integer(id), lua_Integer(slot)) == 0 {
            revive(thread)
            _ = ckarenas_set(thread, store.arenaIndex, lua_Integer(id), lua_Integer(slot))
        }
        live += 1
        return slot
    }

    /// A new props view of `ref` (its props in a slot here), kept in a slot here and pushed, when
    /// this arena is pinned: one C call; false (nothing pushed) otherwise.
    func pushNewView(of ref: LuaRef, _ L: OpaquePointer) -> Bool {
        guard pin != 0 else { return false }
        if dueToShrink { shrink(L) }
        let slot: Int32
        if let reused = free.popLast() { slot = reused } else { slot = next; next += 1 }
        live += 1
        ckarenas_pinned_make_view(L, pin, lua_Integer(ref.ref), lua_Integer(ref.keptClassSlot), lua_Integer(slot))
        ref.view = slot
        return true
    }

    /// Pushes the table (a new one if it was collected) with the value at `index` (absolute)
    /// in a new slot: a construction's first step; returns the slot.
    func open(copying index: Int32, _ L: OpaquePointer) -> Int32 {
        if dueToShrink { shrink(L) }
        let slot: Int32
        if let reused = free.popLast() { slot = reused } else { slot = next; next += 1 }
        if pin != 0 {
            ckarenas_pinned_open(L, pin, index, lua_Integer(slot))
        } else if ckarenas_open(L, store.arenaIndex, lua_Integer(id), index, lua_Integer(slot)) == 0 {
            revive(L)
            _ = ckarenas_open(L, store.arenaIndex, lua_Integer(id), index, lua_Integer(slot))
        }
        live += 1
        return slot
    }

    func release(_ slot: Int32) {
        live -= 1
        if !dueToShrink, highWater > Self.shrinksAbove, live &* 8 < highWater {
            dueToShrink = true
            store.arenasDueToShrink.append(id)
        }
        guard let L = store.L else { return }
        if pin != 0 {
            ckarenas_pinned_clear(L, pin, lua_Integer(slot))
        } else {
            ckarenas_clear(L, store.arenaIndex, lua_Integer(id), lua_Integer(slot))
        }
        free.append(slot)
        if live == 0 && rescued {
            rescued = false
            updatePin()
        }
    }

    static let shrinksAbove = 32_768

    /// Has Lua size the table again for the slots it holds (attack atk-mem 06: 540,000 plain
    /// props held at once with the collector stopped left the host's arena at that size for the
    /// run, 16 MB of a 17 MB heap). Not from a finalizer (tried again at the next slot taken);
    /// once tried, not again before the next peak.
    private func shrink(_ L: OpaquePointer) {
        guard ckarenas_shrink(L, store.arenaIndex, lua_Integer(id), pin, 4096) >= 0 else {
            if !store.arenasDueToShrink.contains(id) { store.arenasDueToShrink.append(id) }
            return
        }
        dueToShrink = false
        highWater = live
    }

    func shrinkIfDue(_ L: OpaquePointer) {
        if dueToShrink { shrink(L) }
    }

    /// Whether the registry roots the table (its owner rooted, not yet adopted, or rescued).
    var isPinned: Bool { pin != 0 }

    /// Whether the value in `slot` is a table that reaches nothing (`LuaRef.holdsOnlyPlainValues`).
    func holdsPlainTable(at slot: Int32, _ L: OpaquePointer) -> Bool {
        if pin != 0 { return ckarenas_pinned_is_plain(L, pin, lua_Integer(slot)) != 0 }
        push(slot, L)
        defer { lua_settop(L, -2) }
        return ckarenas_is_plain_table(L, -1) != 0
    }

    /// The value in `slot` moved to a new slot of `other`; returns that slot.
    func move(_ slot: Int32, to other: Arena, _ L: OpaquePointer) -> Int32 {
        push(slot, L)
        let moved = other.take(L)
        release(slot)
        return moved
    }

    func push(_ slot: Int32, _ L: OpaquePointer) {
        if pin != 0 { _ = ckarenas_pinned_get(L, pin, lua_Integer(slot)); return }
        _ = ckarenas_get(L, store.arenaIndex, lua_Integer(id), lua_Integer(slot))
    }

    /// Counts one more props table needing the handle of `cls`, the class of the run, and
    /// returns its slot; nil if `cls` is not the class of the run (then `keep`).
    @inline(__always)
    func keepCurrent(_ cls: ObjectIdentifier) -> Int32? {
        guard let c = current, c.cls == cls else { return nil }
        current!.count += 1
        return c.slot
    }

    /// Keeps a class's handle (`pushHandle` pushes it) for one more props table; `cls` is its
    /// identity, the class of the run from now on. Returns the handle's slot (for `drop`).
    func keep(_ cls: ObjectIdentifier, _ L: OpaquePointer, pushHandle: () -> Void) -> Int32 {
        if let slot = keepCurrent(cls) { return slot }
        if let c = current { kept.append(c) }
        if let i = kept.firstIndex(where: { $0.cls == cls }) {
            current = kept[i]
            kept.swapAt(i, kept.count - 1)
            kept.removeLast()
            current!.count += 1
        } else {
            pushHandle()
            current = (cls, take(L), 1)
        }
        return current!.slot
    }

    /// One props table fewer needs the class handle in `slot`; the last lets it go.
    func drop(keptSlot slot: Int32) {
        if let c = current, c.slot == slot {
            current!.count -= 1
            if c.count == 1 { current = nil; release(slot) }
            return
        }
        guard let i = kept.firstIndex(where: { $0.slot == slot }) else { return }
        kept[i].count -= 1
        guard kept[i].count == 0 else { return }
        release(kept[i].slot)
        kept.swapAt(i, kept.count - 1)
        kept.removeLast()
    }

    /// Indexes the table again, found through the handle at `handle` (absolute) that carries it,
    /// when the weak index let go of it: Lua clears weak values before the finalizers of a
    /// collection run, and a script's finalizer may read a value here through a handle it holds
    /// (atk-stale 16: `o.row.props` nil as the row's host went in that collection). Its own
    /// finalizer still runs after (and rescues it if Swift holds values here).
    func refind(fromHandleAt handle: Int32, uv: Int32, _ L: OpaquePointer) {
        guard pin == 0 else { return }
        if ckarenas_push(L, store.arenaIndex, lua_Integer(id)) != 0 { lua_settop(L, -2); return }
        guard ckarenas_refind(L, handle, uv, lua_Integer(id)) != 0 else { return }
        if UInt(bitPattern: lua_topointer(L, -1)) == table { ckarenas_index_arena(L, store.arenaIndex, lua_Integer(id)) }
        lua_settop(L, -2)
    }

    /// Sets user value `uv` of the handle at `index` to this arena; the owner's handle adopts it
    /// (Lua's references to the handle decide from then on, unless the core roots the owner).
    func attach(toHandleAt index: Int32, uv: Int32, isOwner: Bool, _ L: OpaquePointer) {
        if pin != 0 {
            ckarenas_pinned_set_handle_arena(L, index, uv, pin)
        } else if ckarenas_set_handle_arena(L, index, uv, store.arenaIndex, lua_Integer(id)) == 0 {
            return
        }
        guard isOwner else { return }
        adopt()
    }

    /// The owner's handle carries the table now.
    func adopt() {
        adopted = true
        rescued = false
        updatePin()
    }

    /// The table was found unreachable (its finalizer ran, at `index`): if values in it are still
    /// held (by Swift objects that Lua does not reach), it is indexed and pinned again, with its
    /// finalizer re-armed; the handles that were collected with it stay collected.
    func finalized(at index: Int32, _ L: OpaquePointer) {
        guard live > 0 || roots > 0 else { return }
        if expectsRescue { store.expectedRescues += 1 } else { store.rescues += 1 }
        lua_pushvalue(L, index)
        ckarenas_index_arena(L, store.arenaIndex, lua_Integer(id))
        lua_rawgeti(L, ckmacros_registryindex(), lua_Integer(store.arenaMetatable))
        lua_setmetatable(L, -2)
        lua_settop(L, -2)
        pin = 0
        rescued = true
        updatePin()
    }

    /// A value went into an arena whose table was collected (nothing Lua reaches carried it and
    /// nothing was held in it): a new table, pinned until a handle adopts it.
    private func revive(_ L: OpaquePointer) {
        ckarenas_new(L, store.arenaIndex, lua_Integer(id), store.arenaMetatable)
        table = UInt(bitPattern: lua_topointer(L, -1))
        lua_settop(L, -2)
        pin = 0
        adopted = false
        updatePin()
    }

    private func updatePin() {
        let pinned = roots > 0 || !adopted || rescued
        guard let L = store.L, pinned != (pin != 0) else { return }
        if pinned {
            guard ckarenas_push(L, store.arenaIndex, lua_Integer(id)) != 0 else { return }
            pin = store.take(L)
        } else {
            store.release(pin)
            pin = 0
        }
    }
}

extension RefStore {
    /// Live arenas, for `ck.stats()`.
    var liveArenas: Int { arenas.count - 1 - freeArenaIDs.count }
    /// The values all arenas hold, counted one arena at a time: what `arenaValues` must equal
    /// (tests check the counter against it; `ck.stats()` reads the counter).
    var arenaValuesWalked: Int {
        arenas.reduce(0) { $0 + ($1?.takeUnretainedValue().live ?? 0) }
    }

    func arena(id: Int) -> Arena? { id > 0 && id < arenas.count ? arenas[id]?.takeUnretainedValue() : nil }
}

/// Where the references a binding makes go (`Ownership.home`).
enum Home {
    /// The arena of the host being built, or the registry outside builds.
    case build
    case registry
    case arena(Arena)
}

extension Ownership {
    /// The arenas' index and metatable; their finalizer is `Arena.finalized`.
    func setUpArenas(_ engine: Engine) {
        let L = lua.L
        lua_createtable(L, 0, 0)
        cksend_push_weak_values_metatable(L)
        lua_setmetatable(L, -2)
        refs.arenaIndex = refs.pin()
        lua_createtable(L, 0, 2)
        engine.functions.setFunction("__gc", qualified: "__gc") { args in
            let e = args.engine, L = args.L
            guard !e.isClosing, let arena = e.refs.arena(id: Int(ckarenas_id(L, 1))),
                  arena.table == UInt(bitPattern: lua_topointer(L, 1)) else { return 0 }
            arena.finalized(at: 1, L)
            return 0
        }
        LuaStack(L).push("ck.arena")
        LuaStack(L).setField("__metatable", of: -2)
        refs.arenaMetatable = refs.pin()
    }

    /// The arena new references go into (nil: the registry).
    var homeArena: Arena? {
        switch home {
        case .build: runtime.buildingArena.map { unsafeDowncast($0, to: Arena.self) }
        case .registry: nil
        case .arena(let a): a
        }
    }

    /// Runs `body` with new references going to `home`. Inlined so its callers' bodies are too
    /// (`c:updateState`'s closure ran outlined when this moved off Engine: +52 instructions an update).
    @inline(__always)
    func withHome<T>(_ home: Home, _ body: () throws -> T) rethrows -> T {
        let saved = self.home
        self.home = home
        defer { self.home = saved }
        return try body()
    }

    /// A new arena for `owner`'s values, pinned until its handle carries it.
    func newArena() -> Arena { Arena(store: refs, lua.L) }
}
