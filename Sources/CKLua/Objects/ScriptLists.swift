import CKCore

/// A script's lists as Swift walks them and makes them (issue 24, class 4): `#t` is a border, not a size, so a
/// list is t[1], t[2], … up to its first nil (`LuaStack.listLength`), and every step ticks the
/// turn's limits, so a list of millions is stopped by `--timeout` and Ctrl-C like a Lua loop.
extension Values {
    /// Calls `body(i)` with t[i] on top of `L`'s stack (popped after it), for each item of the
    /// list at `t`. `body` must run no Lua that could change the list (it is read raw).
    func forEachItem(ofList t: Int32, _ L: OpaquePointer, _ body: (_ index: Int) throws -> Void) throws {
        let stack = LuaStack(L)
        let t = stack.absolute(t)
        let limits = runtime.limits
        var i = 1
        // One pass, as ipairs: t[i] read until the first nil (ckstack_list_length's count).
        while !stack.get(i, from: t).isNil {
            defer { stack.pop() }
            try limits.tick()
            try body(i)
            i += 1
        }
        stack.pop()
    }

    /// Pushes `objects` as a new list.
    func pushList(_ objects: [RuntimeObject], _ L: OpaquePointer) {
        LuaStack(L).newTable(array: objects.count, fields: 0)
        for (i, o) in objects.enumerated() {
            push(o, L)
            LuaStack(L).set(i + 1, into: -2)
        }
    }

    /// Pushes `strings` as a new list.
    func pushStrings(_ strings: [String], _ L: OpaquePointer) {
        LuaStack(L).newTable(array: strings.count, fields: 0)
        for (i, s) in strings.enumerated() {
            pushString(s, L)
            LuaStack(L).set(i + 1, into: -2)
        }
    }
}
