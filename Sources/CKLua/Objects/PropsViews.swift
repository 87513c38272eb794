import CKCore
import CLua
import CLuaShims

/// Props reach Lua as read-only views (ckprops.c): `c.props` and the props arguments of render,
/// view, initialState, a computed scope and shouldUpdate. The runtime keeps and reads the tables.
extension Engine {
    func setUpPropsViews() {
        ck_push_props_views(lua.L)
        propsViews = refs.pin()
    }

    func pushProps(of c: Component, _ L: OpaquePointer) {
        guard case .table(let ref) = c.props else { return push(c.props, L) }
        (ref as! LuaRef).push(L)
        if ck_push_cached_props_view(L, propsViews) != 0 { return }
        ck_pop(L, 1)
        push(c.componentClass, L)
        (ref as! LuaRef).push(L)
        ck_make_props_view(L, propsViews)
    }

    /// Replaces a props view at `index` by its table (`Child(self.props)` gets the table).
    func unwrapPropsView(at index: Int32, _ L: OpaquePointer) { ck_props_table(L, index) }

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
