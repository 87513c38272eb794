import CKCore
import CLua
import CLuaShims

/// Props reach Lua as read-only views (ckprops.c): `c.props` and the props arguments of render,
/// view, initialState and shouldUpdate (a scope function gets the table: it runs before its
/// component exists). The runtime keeps and reads the tables.
/// A props reference keeps its view once made, so the same props are the same Lua value.
extension Engine {
    func setUpPropsViews() { ck_open_props_views(lua.L) }

    func pushProps(of c: Component, _ L: OpaquePointer) {
        guard case .table(let r) = c.props else { return push(c.props, L) }
        let ref = r as! LuaRef
        if ref.view != 0 {
            ref.push(ref.view, L)
            return
        }
        push(c.componentClass, L)
        ref.push(L)
        ck_make_props_view(L)
        lua_pushvalue(L, -1)
        ref.view = ref.keep(L)
    }

    /// State reaches Lua as the same kind of view (SPEC §3): `c.state`, a scope's `state` and
    /// the state argument of render and view; writing it raises `[immutableComponent]` naming
    /// the state. A state reference keeps its view as a props reference does.
    func pushState(_ state: Value, of cls: ComponentClass?, _ L: OpaquePointer) {
        guard let cls, case .table(let r) = state, let ref = r as? LuaRef else { return push(state, L) }
        if ref.view != 0 {
            lua_rawgeti(L, ck_registryindex(), lua_Integer(ref.view))
            return
        }
        push(cls, L)
        ref.push(L)
        ck_make_state_view(L)
        lua_pushvalue(L, -1)
        ref.view = refs.take(L)
    }

    /// If the value at `index` is a props or state view (`Child(self.props)`): replaces it by
    /// its table; true if it was a props view.
    func unwrapPropsView(at index: Int32, _ L: OpaquePointer) -> Bool { ck_props_table(L, index) == 1 }

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
        try callForValue(fn) { L in
            var n: Int32 = 1
            if let receiver { push(receiver, L); n += 1 }
            pushProps(of: first, L)
            if let second { pushProps(of: second, L); n += 1 }
            if let state { pushState(state, of: first.componentClass, L); n += 1 }
            return n
        }
    }
}
