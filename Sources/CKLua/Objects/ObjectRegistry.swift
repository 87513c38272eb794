import CKCore
import CLua
import CLuaShims

/// The handles Lua holds for runtime objects: a userdata carrying a slot number, never a
/// pointer. A weak-valued table maps slots to userdata so one object is one Lua value.
final class ObjectRegistry {
    /// The userdata payload.
    struct Handle {
        var slot: Int32
        var kind: Int32
    }

    private static let kinds = Int32(ObjectKind.allCases.count + 1)
    private var slots: [RuntimeObject?] = [nil]
    private var freeSlots: [Int32] = []
    /// Where each handle kept while its object lives is (`keepWhileLive`): its arena and the slot there.
    fileprivate let kept = KeptHandles()
    private var weakTable: Int32 = 0
    /// The most handles alive at once since the weak table was last made: about its size.
    private var highWater = 0
    private var refs: RefStore!
    /// Metatable registry refs by kind.
    private var metatables = [Int32](repeating: 0, count: ObjectKind.allCases.count + 1)
    /// Each kind's metatable address, by kind: a handle is ours if its metatable is its kind's.
    /// Allocated once, for C to read (`ckhandles_at`).
    private let metatablePointers: UnsafeMutablePointer<UnsafeRawPointer?> = {
        let p = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: ObjectKind.allCases.count + 1)
        p.initialize(repeating: nil, count: ObjectKind.allCases.count + 1)
        return p
    }()

    /// Where `ckhandles_list` writes a children list's slots, a chunk at a time.
    private static let listChunk: Int32 = 256
    private let listSlots = UnsafeMutablePointer<Int32>.allocate(capacity: Int(listChunk))

    deinit {
        metatablePointers.deallocate()
        listSlots.deallocate()
    }

    var liveHandles: Int { slots.count - 1 - freeSlots.count }

    /// The metatable of `kind`'s handles, as Lua's `lua_topointer` gives it.
    func metatablePointer(for kind: ObjectKind) -> UnsafeRawPointer? {
        metatablePointers[Int(kind.rawValue)]
    }

    func setUp(_ L: OpaquePointer, refs: RefStore) {
        self.refs = refs
        lua_createtable(L, 0, 0)
        cksend_push_weak_values_metatable(L)
        lua_setmetatable(L, -2)
        weakTable = refs.pin()
    }

    /// Registers the metatable on top of the stack for `kind` (pops it).
    func setMetatable(for kind: ObjectKind, _ L: OpaquePointer) {
        metatablePointers[Int(kind.rawValue)] = lua_topointer(L, -1)
        metatables[Int(kind.rawValue)] = refs.pin()
    }

    /// Pushes the one Lua value of `object`, making it on first use; true if it made it.
    @discardableResult
    func push(_ object: RuntimeObject, kind: ObjectKind, _ L: OpaquePointer) -> Bool {
        if object.bridgeSlot != 0, ckhandles_push_live(L, weakTable, lua_Integer(object.bridgeSlot)) != 0 { return false }
        let slot = takeSlot(for: object)
        ckhandles_push_new(L, weakTable, slot, kind.rawValue, metatables[Int(kind.rawValue)], kind.userValues)
        return true
    }

    /// Pushes `object`'s handle if Lua still has it (never makes one); true if it pushed.
    func pushLive(_ object: RuntimeObject, _ L: OpaquePointer) -> Bool {
        object.bridgeSlot != 0 && ckhandles_push_live(L, weakTable, lua_Integer(object.bridgeSlot)) != 0
    }

    /// Pushes the first handle of `object` (one without a handle yet) with `userValues` user
    /// values, carrying the value at `arena` (absolute) as user value `uv`, and moves it to
    /// `dest`, where the stack then ends.
    func pushNew(_ object: RuntimeObject, kind: ObjectKind, userValues: Int32, carrying arena: Int32, as uv: Int32,
                 to dest: Int32, _ L: OpaquePointer) {
        let slot = takeSlot(for: object)
        ckhandles_push_new_owned(L, weakTable, slot, kind.rawValue, metatables[Int(kind.rawValue)], userValues, arena, uv, dest)
    }

    /// A free slot (or a new one) now holding `object`, recorded as its bridge slot.
    @inline(__always)
    private func takeSlot(for object: RuntimeObject) -> Int32 {
        let slot: Int32
        if let s = freeSlots.popLast() {
            slot = s
            slots[Int(s)] = object
        } else {
            slot = Int32(slots.count)
            slots.append(object)
        }
        let live = slots.count - freeSlots.count
        if live > highWater { highWater = live }
        object.bridgeSlot = slot
        return slot
    }

    /// The object behind a handle at `index`, or nil if the value is not one of ours.
    func object(at index: Int32, _ L: OpaquePointer) -> RuntimeObject? {
        guard let handle = handle(at: index, L) else { return nil }
        return slots[Int(handle.slot)]
    }

    /// The object behind a handle C has already checked (its size and its kind's metatable), e.g.
    /// `Class(props)`'s class; the slot is checked again, in case a foreign userdata wears the metatable.
    func object(inCheckedHandleAt index: Int32, _ L: OpaquePointer) -> RuntimeObject? {
        guard let raw = lua_touserdata(L, index) else { return nil }
        let handle = raw.load(as: Handle.self)
        guard handle.slot > 0, Int(handle.slot) < slots.count else { return nil }
        return slots[Int(handle.slot)]
    }

    func handle(at index: Int32, _ L: OpaquePointer) -> Handle? {
        var kind: Int32 = 0
        let slot = ckhandles_at(L, index, metatablePointers, Self.kinds, &kind)
        guard slot > 0, Int(slot) < slots.count else { return nil }
        return Handle(slot: slot, kind: kind)
    }

    /// The component behind the handle-sized userdata at `index`, its metatable unchecked: a
    /// class's instances by key (ckclass.c) hold component handles alone.
    func component(inCheckedHandleAt index: Int32, _ L: OpaquePointer) -> Component? {
        guard let raw = lua_touserdata(L, index) else { return nil }
        let handle = raw.load(as: Handle.self)
        guard handle.kind == ObjectKind.component.rawValue, handle.slot > 0, Int(handle.slot) < slots.count,
              let object = slots[Int(handle.slot)] else { return nil }
        return object as? Component
    }

    /// The components of the list at `t` in index order, read in C a chunk at a time (two to
    /// three times cheaper an entry than `component(at:)` per `next`), when the list is the
    /// common case: live component handles, or false, under integer keys met in increasing order.
    /// Nil otherwise, the stack as it was: the caller walks it entry by entry and says what is
    /// wrong. No Lua runs; the limits are ticked a chunk at a time.
    func componentsOfPlainList(at t: Int32, _ L: OpaquePointer, limits: WorkLimits) throws -> [Component]? {
        let t = lua_absindex(L, t), base = lua_gettop(L)
        defer { lua_settop(L, base) }
        let metatable = metatablePointers[Int(ObjectKind.component.rawValue)]
        var components: [Component] = []
        var last: Int64 = 0, status: Int32 = 1
        lua_pushnil(L)
        while status == 1 {
            let n = ckhandles_list(L, t, metatable, ObjectKind.component.rawValue, listSlots, Self.listChunk, &last, &status)
            if status < 0 { return nil }
            try limits.tick(Int(n))
            if components.isEmpty { components.reserveCapacity(Int(n)) }
            for i in 0..<Int(n) {
                let slot = Int(listSlots[i])
                guard slot < slots.count, let object = slots[slot] else { return nil }
                components.append(unsafeDowncast(object, to: Component.self))
            }
        }
        return components
    }

    /// The component behind a handle at `index`, or nil if the value is not a component's handle.
    func component(at index: Int32, _ L: OpaquePointer) -> Component? {
        guard let handle = handle(at: index, L), handle.kind == ObjectKind.component.rawValue,
              let object = slots[Int(handle.slot)] else { return nil }
        return unsafeDowncast(object, to: Component.self)
    }

    /// A weak table smaller than this stays as it is.
    static let compactsAbove = 32_768

    /// The weak table again at its live size, once it holds an eighth of its peak (attack
    /// atk-mem 06: 722,000 handles made with the collector stopped left a table of that size for
    /// the rest of the run, 8 MB in 16 MB of heap at 361,000). Amortized: at least 7/8 of a peak
    /// of handles were collected since the last copy, and the copy walks the live ones.
    private func compactWeakTable(_ L: OpaquePointer) {
        ckhandles_compact(L, weakTable)
        highWater = max(liveHandles, 1)
    }

    /// `__gc`: frees the slot; the object forgets this userdata if it was its current one.
    func collect(at index: Int32, _ L: OpaquePointer) {
        guard let raw = lua_touserdata(L, index) else { return }
        let handle = raw.load(as: Handle.self)
        guard handle.slot > 0, Int(handle.slot) < slots.count, let object = slots[Int(handle.slot)] else { return }
        letGo(handleSlot: handle.slot)      // collected with its arena: its slot goes back
        if object.bridgeSlot == handle.slot { object.bridgeSlot = 0 }
        raw.storeBytes(of: Handle(slot: -classSlot(of: object, kind: handle.kind), kind: handle.kind), as: Handle.self)
        handleCollected(object, kind: handle.kind)
        slots[Int(handle.slot)] = nil
        freeSlots.append(handle.slot)
        if highWater > Self.compactsAbove, liveHandles &* 8 < highWater { compactWeakTable(L) }
    }
}

/// SPEC §1: a handle a script obtained stays its object's one Lua value while the object lives
/// in the runtime (`RuntimeObject.keepsItsHandle`): it is held in a slot of its object's arena
/// (Arenas.swift: where Lua's collector sees it, going with its host's values; a slot is the
/// arena's array part, so keeping and letting go at each update rehashes nothing), and let go
/// when the object ends (`Runtime.onObjectEnded`, a burial) or its handle is collected. Only
/// handles obtained after the object was placed are kept, so an object no script asked for
/// costs nothing (a handle `Class(props)` returned in a render is the render's own value).
extension ObjectRegistry {
    /// Keeps the handle of `object` at `index` in a slot of `arena` while `object` lives (once;
    /// a kept one is told by one bit of the object, `handleIsKept`).
    @inline(__always)
    func keepWhileLive(handleAt index: Int32, of object: RuntimeObject, kind: ObjectKind,
                       arena: (RuntimeObject) -> Arena?, _ L: OpaquePointer) {
        guard !object.handleIsKept, kind.keepsHandles else { return }
        keep(handleAt: index, of: object, arena: arena, L)
    }

    private func keep(handleAt index: Int32, of object: RuntimeObject, arena: (RuntimeObject) -> Arena?,
                      _ L: OpaquePointer) {
        guard object.keepsItsHandle, let arena = arena(object) else { return }
        lua_pushvalue(L, index)
        kept.insert(object.bridgeSlot, arena: arena, arenaSlot: arena.take(L))
        object.handleIsKept = true
    }

    /// `object` ended: its handle, if kept, is let go (Lua then collects it when the script does).
    @inline(__always)
    func letGo(of object: RuntimeObject) {
        guard object.handleIsKept else { return }
        object.handleIsKept = false
        letGo(handleSlot: object.bridgeSlot)
    }

    /// The handle in `slot`, if kept, is let go (its object ended, or it was collected with its arena).
    func letGo(handleSlot slot: Int32) {
        guard kept.count != 0, let (arena, arenaSlot) = kept.remove(slot) else { return }
        arena.takeRetainedValue().release(arenaSlot)
    }
}

extension ObjectRegistry {
    /// A collected handle keeps the negated slot of its object's class handle (0: none), so that
    /// a handle a `__gc` finalizer stored after the collection (Lua lets a finalizer resurrect
    /// what it reaches) is named when used: `finalizedHandle(at:)`.
    @inline(__always)
    private func classSlot(of object: RuntimeObject, kind: Int32) -> Int32 {
        switch kind {
        case ObjectKind.component.rawValue: unsafeDowncast(object, to: Component.self).componentClass.bridgeSlot
        case ObjectKind.controller.rawValue: unsafeDowncast(object, to: Controller.self).controllerClass.bridgeSlot
        default: 0
        }
    }

    /// What a handle Lua already finalized was (`a Row component`), or nil if the value at
    /// `index` is not one: a handle of ours, by its metatable, whose slot was given back.
    func finalizedHandle(at index: Int32, _ L: OpaquePointer) -> String? {
        var kind: Int32 = 0
        let slot = ckhandles_at(L, index, metatablePointers, Self.kinds, &kind)
        guard kind != 0, slot <= 0, let k = ObjectKind(rawValue: kind) else { return nil }
        let article = "aeiou".contains(k.name.lowercased().first!) ? "an" : "a"
        guard slot < 0, Int(-slot) < slots.count, let cls = slots[Int(-slot)], cls.bridgeSlot == -slot,
              cls is ComponentClass || cls is ControllerClass else { return "\(article) \(k.name)" }   // bounded: an object kind (ObjectKind), ours
        let name = (cls as? ComponentClass)?.name ?? (cls as? ControllerClass)?.name ?? ""
        return "\(article) \(k.name) of class \(Excerpt.text(name))"   // bounded: an object kind (ObjectKind), ours
    }
}

/// The Lua-visible kinds of runtime object, one metatable each.
enum ObjectKind: Int32, CaseIterable {
    case component = 1, componentClass, controller, controllerClass, host, view, action, event, attribute,
         scope, traceEntry

    /// Actions carry their send plan, component classes their scope function (user value 1);
    /// handles of objects that own or hold script values carry the arena those live in
    /// (`arenaUserValue`, see Ownership.swift).
    var userValues: Int32 {
        switch self {
        case .action: CK_ACTION_USER_VALUES + 1
        case .componentClass: CK_CLASS_USER_VALUES + 1
        case .component, .controllerClass, .host, .scope, .controller, .view: 1
        default: 0
        }
    }

    /// Kinds whose handles are kept while their objects live (SPEC §1).
    var keepsHandles: Bool {
        switch self {
        case .component, .controller, .host, .scope, .view: true
        default: false
        }
    }

    /// The user value that carries the handle's arena (a component's second, when it has one,
    /// is its props: `Ownership.finish`, ckclass.c).
    var arenaUserValue: Int32 { userValues }

    var name: String {
        switch self {
        case .component: "Component"
        case .componentClass: "ComponentClass"
        case .controller: "Controller"
        case .controllerClass: "ControllerClass"
        case .host: "Host"
        case .view: "View"
        case .action: "Action"
        case .event: "Event"
        case .attribute: "Attribute"
        case .scope: "Scope"
        case .traceEntry: "TraceEntry"
        }
    }

    static func of(_ object: RuntimeObject) -> ObjectKind? {
        switch object {
        case is Component: .component
        case is ComponentClass: .componentClass
        case is Controller: .controller
        case is ControllerClass: .controllerClass
        case is Host: .host
        case is View: .view
        case is Action: .action
        case is Event: .event
        case is ActionAttribute: .attribute
        case is Scope: .scope
        case is Tracer.Entry: .traceEntry
        default: nil
        }
    }
}

extension ObjectRegistry {
    /// Sets the handle at `index`'s user value 1 to the value on top (popped).
    func setUserValue(of index: Int32, _ L: OpaquePointer) {
        lua_setiuservalue(L, index, 1)
    }

    /// Gives the class handle at `index` a table of its instances by key for `Class(props)`
    /// in C (ckclass.c), or takes it away.
    func setKeepsInstances(of index: Int32, _ keeps: Bool, _ L: OpaquePointer) {
        ckclass_set_keep(L, index, keeps ? 1 : 0)
    }

    /// Pushes the `__call` of component classes (see ckclass.c) for the metatable at `metatable`.
    func pushClassCall<T>(metatableAt metatable: Int32, plain: Int32, checked: Int32, computed: Int32,
                          keep: Int32, state: UnsafeMutablePointer<T>, _ L: OpaquePointer) {
        let s = UnsafeRawPointer(state).bindMemory(to: ck_callstate.self, capacity: 1)
        ckclass_push_call(L, metatable, plain, checked, computed, keep, s)
    }
}
