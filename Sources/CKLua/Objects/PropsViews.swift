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
            lua_rawgeti(L, ck_registryindex(), lua_Integer(ref.view))
            return
        }
        push(c.componentClass, L)
        ref.push(L)
        ck_make_props_view(L)
        lua_pushvalue(L, -1)
        ref.view = refs.take(L)
    }

    /// If the value at `index` is a props view (`Child(self.props)`): replaces it by its table and
    /// returns a registry key holding the view, for `adoptPropsView`; else 0.
    func takePropsView(at index: Int32, _ L: OpaquePointer) -> Int32 {
        guard ck_is_props_view(L, index) != 0 else { return 0 }
        lua_pushvalue(L, index)
        let view = refs.take(L)
        ck_props_table(L, index)
        return view
    }

    /// The component built from a view's table keeps that view: `Child(self.props).props ==
    /// self.props`. Releases the key if the component's props are another table.
    func adoptPropsView(_ view: Int32, by c: Component?) {
        guard view != 0 else { return }
        if let c, case .table(let r) = c.props, let ref = r as? LuaRef, ref.view == 0 {
            ref.view = view
        } else {
            refs.release(view)
        }
    }

    /// Calls a build function whose arguments are `(receiver?, props, secondProps?, state?)`, for
    /// its first result (nil if none); the props of `props` and `secondProps` go as views.
    func callWithProps(_ fn: LuaRef, receiver: Component? = nil, props first: Component,
                       then second: Component? = nil, state: Value? = nil) throws -> Value {
        let L = runningThread
        let base = pushCall(fn)
        var n: Int32 = 1
        if let receiver { push(receiver, L); n += 1 }
        pushProps(of: first, L)
        if let second { pushProps(of: second, L); n += 1 }
        if let state { push(state, L); n += 1 }
        try protectedCall(n, results: 1, base: base)
        let result = value(at: -1, L)
        lua_settop(L, base)
        return result
    }
}
