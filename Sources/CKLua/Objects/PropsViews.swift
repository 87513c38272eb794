import CKCore
import CLua
import CLuaShims

/// Props reach Lua as read-only views (ckprops.c): `c.props`, the props arguments of render,
/// view, initialState, shouldUpdate and the scope function, and props passed on anywhere else
/// (as state, an argument, a model). The runtime keeps and reads the tables; a view Lua passes
/// back stands for its table, read-only again when it returns to Lua.
/// A props reference keeps its view once made, so the same props are the same Lua value.
extension Values {
    /// The views' metatable is pinned under an integer key: found by `rawgeti`, not `rawgetp`.
    func setUpPropsViews() {
        ckprops_open_views(lua.L)
        ckprops_use_metatable_key(lua.L, refs.pin())
    }

    func pushProps(of c: Component, _ L: OpaquePointer) {
        guard case .table(let r) = c.props else { return push(c.props, L) }
        pushView(of: unsafeDowncast(r, to: LuaRef.self), L)
    }

    /// Pushes the view of a props reference, made on first use (its errors name the class kept
    /// beside the props).
    func pushView(of ref: LuaRef, _ L: OpaquePointer) {
        if ref.view != 0 {
            ref.push(ref.view, L)
            return
        }
        if let arena = ref.arena, arena.pushNewView(of: ref, L) { return }
        if ref.keptClassSlot != 0, let arena = ref.arena { arena.push(ref.keptClassSlot, L) } else { lua_pushnil(L) }
        ref.push(L)
        ckprops_make_view(L)
        lua_pushvalue(L, -1)
        ref.view = ref.keep(L)
    }

    /// Before a field of the handle at `handle` is pushed (`c.props`, `c.state`, `scope.state`):
    /// if the value's arena is being finalized in this collection, it is found again through the
    /// handle (`Arena.refind`; a pinned arena, a mounted host's, costs only the check).
    @inline(__always)
    func refindArena(of value: Value, heldByHandleAt handle: Int32, kind: ObjectKind, _ L: OpaquePointer) {
        guard case .table(let r) = value else { return }
        refindArena(unsafeDowncast(r, to: LuaRef.self).arena, heldByHandleAt: handle, kind: kind, L)
    }

    /// The same for the arena a method's `self` carries (a host's, an instance's props'), before the
    /// method reads or writes there: a finalizer's `o.h:update(m)` wrote into a new table while the
    /// old one, in the window, still held the provider ("attempt to call a nil value").
    @inline(__always)
    func refindArena(_ arena: Arena?, heldByHandleAt handle: Int32, kind: ObjectKind, _ L: OpaquePointer) {
        guard let arena, !arena.isPinned else { return }
        arena.refind(fromHandleAt: handle, uv: kind.arenaUserValue, L)
    }

    /// State reaches Lua as the same kind of view (SPEC §3): `c.state`, a scope's `state` and
    /// the state argument of render and view; writing it raises `[immutableComponent]` naming
    /// the state. A state reference keeps its view as a props reference does.
    func pushState(_ state: Value, of cls: ComponentClass?, _ L: OpaquePointer) {
        guard let cls, case .table(let r) = state, let ref = r as? LuaRef else { return push(state, L) }
        if ref.view != 0 {
            ref.push(ref.view, L)
            return
        }
        push(cls, L)
        ref.push(L)
        ckprops_make_state_view(L)
        lua_pushvalue(L, -1)
        ref.view = ref.keep(L)      // beside the state, in its arena: not a registry root
    }

    /// If the value at `index` is a read-only view, of props or of state (`Child(self.props)`,
    /// a `{"table"}` argument, a view function returning its state): replaces it by its table
    /// and says which; nil (the value left as it is) for anything else. State is read-only "as
    /// props are" (SPEC §3): every place that takes a table asks this, so both views stand for
    /// their tables alike (atk-spec 02: the state view was refused where the props view passed).
    func unwrapReadOnlyView(at index: Int32, _ L: OpaquePointer) -> ReadOnlyView? {
        switch ckprops_table(L, index) {
        case 1: .props
        case 2: .state
        default: nil
        }
    }

    /// Whether the value at `index` is a read-only props or state view.
    func isReadOnlyView(at index: Int32, _ L: OpaquePointer) -> Bool { ckprops_is_view(L, index) != 0 }

    /// The props a view at `index` shows, as a reference that keeps the view (so it goes back to
    /// Lua as the same view); nil if the value is not a view.
    func propsReference(at index: Int32, _ L: OpaquePointer, in arena: Arena?) -> LuaRef? {
        lua_pushvalue(L, index)
        guard unwrapReadOnlyView(at: -1, L) != nil else {
            lua_settop(L, -2)
            return nil
        }
        let ref = reference(at: -1, L, .table, in: arena)
        lua_settop(L, -2)
        ref.isProps = true
        lua_pushvalue(L, index)
        ref.view = ref.keep(L)
        return ref
    }

    /// The component built from a view's table keeps that view (the value at `index`):
    /// `Child(self.props).props == self.props`.
    func adoptPropsView(at index: Int32, by c: Component, _ L: OpaquePointer) {
        guard case .table(let r) = c.props, let ref = r as? LuaRef, ref.view == 0 else { return }
        lua_pushvalue(L, index)
        ref.view = ref.keep(L)
    }

    /// Calls a build function whose arguments are `(receiver?, props, secondProps?, state?)`, for
    /// its first result (nil if none); the props of `props` and `secondProps` go as views.
    func callWithProps(_ fn: LuaRef, receiver: Component? = nil, props first: Component,
                       then second: Component? = nil, state: Value? = nil) throws -> Value {
        try callForValue(fn) { L in pushPropsArguments(receiver, first, second, state, L) }
    }

    /// `callWithProps` whose first result `read` reads on the stack (see `callForResult`).
    func callWithProps<T>(_ fn: LuaRef, receiver: Component, props first: Component, state: Value,
                          reading read: (Int32, OpaquePointer) throws -> T) throws -> T {
        try callForResult(fn, pushing: { L in pushPropsArguments(receiver, first, nil, state, L) }, reading: read)
    }

    @inline(__always)
    private func pushPropsArguments(_ receiver: Component?, _ first: Component, _ second: Component?,
                                    _ state: Value?, _ L: OpaquePointer) -> Int32 {
        var n: Int32 = 1
        if let receiver { push(receiver, L); n += 1 }
        pushProps(of: first, L)
        if let second { pushProps(of: second, L); n += 1 }
        if let state { pushState(state, of: first.componentClass, L); n += 1 }
        return n
    }
}

/// The two read-only views a table reaches Lua as (ckprops.c): they read alike; writes name
/// what they show.
enum ReadOnlyView { case props, state }
