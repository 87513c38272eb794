import CKCore
import CLua
import CLuaShims

/// What a build took out of the tree, moved out of the values the registry roots. A component's
/// props live in its host's arena, which the registry roots while the host is tracked; a replaced
/// component that lives on (a script holds its handle, or the handle of one above it) would keep
/// them rooted until Lua collects that handle, and with them the handles in them: a replaced
/// generation went one level of the tree per full collection (a 1,000-row list re-drawn 200 times
/// held 240 MB until five collections in a row). Moved into one unrooted arena per build, carried
/// by the handles of what it holds, the whole generation is one graph Lua's collector sees.
extension Ownership {
    /// `left`: parents first. What nothing else holds goes at once (its values with it).
    func bury(_ left: inout [Component?]) {
        var grave: Arena?
        var moved = 0
        let L = lua.L
        for i in left.indices {
            if isKnownUniquelyReferenced(&left[i]) { left[i] = nil; continue }
            guard let c = left[i] else { continue }
            objects.letGo(of: c)
            // What it placed is reached from here on only through its props (and their handles):
            // a held stale instance keeps no subtree alive in Swift, and what nothing else holds
            // below it goes with its handle (the keyed rows of a re-rendered list).
            c.letGoOfChildrenAfterLeaving()
            // Its props are then all it holds: ones its successor shares stay with the tree, and
            // ones that reach nothing (strings, numbers, booleans) may stay until its handle goes.
            guard !c.propsLiveOn, case .table(let r) = c.props, let ref = r as? LuaRef,
                  ref.arena?.isPinned == true, !ref.isPlain, !ref.holdsOnlyPlainValues(L) else { continue }
            let g = grave ?? spareGraves.first ?? newGrave()
            grave = g
            ref.move(to: g, keepingHandleOf: ObjectIdentifier(c.componentClass), L)
            moved += 1
            if c.bridgeSlot != 0, objects.pushLive(c, L) {
                g.attach(toHandleAt: -1, uv: ObjectKind.component.arenaUserValue, isOwner: false, L)
                lua_settop(L, -2)
            }
        }
        left.removeAll(keepingCapacity: true)
        guard let grave else { return }
        grave.adopt()
        if grave === spareGraves.first { spareGraves.removeFirst() }
        // What they hold in Swift goes only when Lua finalizes their handles (so the step comes
        // once this list holds none of them): the collector is told of it, or it paces itself by
        // Lua's bytes alone and lags (200 re-draws of 1,000 rows: 10-15 MB of Lua heap told,
        // 60-110 MB untold).
        ckstate_gc_debt_kb(L, Int32(clamping: moved * Self.swiftBytesPerComponent / 1024))
    }

    /// About what a replaced component holds in Swift (itself, its view, their arrays).
    static let swiftBytesPerComponent = 1024

    /// Lua runs the finalizers of one collection newest first: a grave made before the
    /// components it will hold is finalized after their handles, which let go of its values
    /// first, so the registry need not pin it again for them (`Arena.finalized`). Constructions
    /// keep two spares; a burial takes the older, made before the generation it replaces.
    @inline(never)
    func makeSpareGrave() {
        while spareGraves.count < 2 { spareGraves.append(newGrave()) }
    }

    private func newGrave() -> Arena {
        let grave = newArena()
        grave.expectsRescue = true
        return grave
    }
}
