import CKCore
import CLua
import CLuaShims

/// Who owns which arena (Arenas.swift), and what roots it:
/// - a host owns the arena of its provider, model, responders and its whole tree (props built
///   in its builds, state, controllers' fields); the runtime roots it while it tracks the host
///   (mounted, or with updates pending) and while it runs as the app;
/// - a class owns its definition's values; rooted while registered under its name, and, for a
///   controller class, while controllers of it live; a component keeps its class's handle beside
///   its props, so a tree keeps the classes it was built from without rooting them;
/// - a component built outside any build owns an arena of its own, as does a block action.
/// Every handle of such an object carries the arena its values live in (`arenaUserValue`).
/// The engine's `ownership`: a class of its own, stored in a `let`, so a caller holding the
/// engine reaches it, and it its fields, borrowed (no retain on the build's hot path).
final class Ownership {
    let lua: LuaState
    let refs: RefStore
    let objects: ObjectRegistry
    let runtime: Runtime
    /// Where the references bindings make go (Arenas.swift).
    var home = Home.build
    /// Arenas for the next burials (Burial.swift), oldest first: each made before what it will hold.
    var spareGraves: [Arena] = []

    init(lua: LuaState, refs: RefStore, objects: ObjectRegistry, runtime: Runtime) {
        self.lua = lua
        self.refs = refs
        self.objects = objects
        self.runtime = runtime
    }

    /// The arenas' index and metatable (their finalizer, `Arena.finalized`, is a function of
    /// `engine`), and the runtime's word when it starts or stops tracking a host.
    func setUp(_ engine: Engine) {
        setUpArenas(engine)
        runtime.onHostTracked = { [unowned(unsafe) self] host, tracked in
            self.arena(of: host)?.roots += tracked ? 1 : -1
            self.keepHandle(of: host, tracked)
        }
        runtime.onComponentsLeft = { [unowned(unsafe) self] left in self.bury(&left) }
        runtime.onObjectEnded = { [unowned(unsafe) self] object in self.objects.letGo(of: object) }
        runtime.keepsRetiredController = { [unowned(unsafe) self] scope, k in self.keepsRetired(scope, k) }
    }

    /// A tracked host's handle, if the script has one, is kept while tracked (SPEC §1: a mounted
    /// host is one value); an untracked one only while the script holds it.
    private func keepHandle(of host: Host, _ tracked: Bool) {
        let L = lua.L
        guard tracked else { return objects.letGo(of: host) }
        guard objects.pushLive(host, L) else { return }
        objects.keepWhileLive(handleAt: -1, of: host, kind: .host, arena: arena(of:), L)
        lua_settop(L, -2)
    }

    @inline(__always)
    func arena(of host: Host) -> Arena? { host.scriptArena.map { unsafeDowncast($0, to: Arena.self) } }

    func arena(ofClass cls: RuntimeObject) -> Arena? { ClassBridge.table(of: cls)?.arena }

    /// The arena whose values `object` holds or owns.
    func arena(of object: RuntimeObject) -> Arena? {
        switch object {
        case let c as Component: if case .table(let r) = c.props { (r as? LuaRef)?.arena } else { nil }
        case let h as Host: arena(of: h)
        case let s as Scope: s.host.flatMap(arena(of:))
        case let k as Controller: k.scope?.host.flatMap(arena(of:))
        case let v as View: (v.hostingHost ?? v.component?.host).flatMap(arena(of:))
        case let a as Action: (a.block?.script as? LuaRef)?.arena
        default: arena(ofClass: object)
        }
    }

    /// `arena(of:)` for an object of `kind`: a component's without a cast for each kind tried
    /// (a push of a new component's handle asks twice: its user value, and where it is kept).
    @inline(__always)
    func arena(of object: RuntimeObject, kind: ObjectKind) -> Arena? {
        guard kind == .component else { return arena(of: object) }
        guard case .table(let r) = unsafeDowncast(object, to: Component.self).props else { return nil }
        return (r as? LuaRef)?.arena
    }

    /// A new handle carries its object's arena; the owner's handle adopts it.
    func attachArena(of object: RuntimeObject, kind: ObjectKind, toHandleAt index: Int32, _ L: OpaquePointer) {
        guard kind.arenaUserValue != 0, let arena = arena(of: object, kind: kind) else { return }
        arena.attach(toHandleAt: index, uv: kind.arenaUserValue, isOwner: arena.owner == ObjectIdentifier(object), L)
    }

    /// Where a component being built keeps its values: the arena of the host being built or,
    /// outside builds, one the component owns. Its table stays pushed (at `table`) meanwhile:
    /// the construction's stores and its handle's user value then need no lookup each (this is
    /// `Class(props)`, the build's hot path).
    struct Construction {
        let arena: Arena
        let owns: Bool
        let table: Int32
        let props: LuaRef
    }

    /// Opens the construction with the props table at `index` (absolute) stored in the arena;
    /// the class's handle is kept there too: whatever keeps the props (a host's tree, a table
    /// holding the component) keeps the class a render needs.
    func beginConstruction(props index: Int32, of cls: ComponentClass, _ L: OpaquePointer) -> Construction {
        if spareGraves.count < 2 { makeSpareGrave() }
        let home = homeArena, arena = home ?? newArena()
        let ref = LuaRef(store: refs, arena: arena, ref: arena.open(copying: index, L), type: .table,
                         identity: UInt(bitPattern: lua_topointer(L, index)))
        ref.keptClassSlot = arena.keepCurrent(ObjectIdentifier(cls)) ?? keepHandle(of: cls, in: arena, L)
        ref.isProps = true
        return Construction(arena: arena, owns: home == nil, table: lua_gettop(L), props: ref)
    }

    /// The class's handle kept in `arena` for one more props table, when `cls` starts a run.
    @inline(never)
    private func keepHandle(of cls: ComponentClass, in arena: Arena, _ L: OpaquePointer) -> Int32 {
        arena.keep(ObjectIdentifier(cls), L) {
            if objects.push(cls, kind: .componentClass, L) {
                attachArena(of: cls, kind: .componentClass, toHandleAt: -1, L)
                ClassBridge.setScopeFunction(of: cls, onHandleAt: -1, L, objects: objects)
            }
        }
    }

    /// The component's own arena knows its owner; `pushingTo`: its first handle, carrying the
    /// construction's arena (the owner's handle adopts it), goes there and the stack ends there.
    func finish(_ c: Construction, of built: Component, pushingTo dest: Int32?, _ L: OpaquePointer) {
        if c.owns { c.arena.owner = ObjectIdentifier(built) }
        guard let dest else { return }
        guard built.bridgeSlot == 0 else {          // a handle made during construction: it stays
            objects.push(built, kind: .component, L)
            LuaStack(L).replace(at: dest)
            LuaStack(L).top = dest
            return
        }
        // A second user value only where ckclass.c records the instance and its props (16 bytes).
        let userValues = ClassBridge.keepsInstancesByKey(built.componentClass) ? CK_COMPONENT_USER_VALUES : 1
        objects.pushNew(built, kind: .component, userValues: userValues, carrying: c.table,
                        as: ObjectKind.component.arenaUserValue, to: dest, L)
        if c.owns { c.arena.adopt() }
    }

    /// `ck.component`/`ck.controller`: registers the class under its name; the class it replaces,
    /// if any, is no longer rooted by its name.
    func register(_ cls: ComponentClass) {
        if let old = runtime.componentClass(named: cls.name), old !== cls { arena(ofClass: old)?.roots -= 1 }
        runtime.define(cls)
        arena(ofClass: cls)?.roots += 1
    }

    func register(_ cls: ControllerClass) {
        if let old = runtime.controllerClass(named: cls.name), old !== cls { arena(ofClass: old)?.roots -= 1 }
        runtime.define(cls)
        let arena = arena(ofClass: cls)
        arena?.roots += 1
        cls.onLiveControllers = { [unowned(unsafe) arena] live in arena?.roots += live ? 1 : -1 }
    }

    /// Makes a class's arena, its owner `cls`, and runs `body` (the definition) with new
    /// references going there.
    func defining<T>(_ cls: RuntimeObject, _ body: (Arena) throws -> T) rethrows -> T {
        let arena = newArena()
        arena.owner = ObjectIdentifier(cls)
        return try withHome(.arena(arena)) { try body(arena) }
    }
}
