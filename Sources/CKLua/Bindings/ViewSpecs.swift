import CKCore

/// A component class's view table (`view = {class = "UIButton", attributes = {...}}`, or what
/// its view function returns) read into a `ViewSpec` for the core to mount.
extension HostBridge {
    /// `{class = "UIButton", attributes = {...}}` → a view spec; action attributes are split
    /// out in attribute order (array part first, then keys sorted).
    /// `definedAt`: where the view function that returned it is defined, for the errors.
    func viewSpec(_ v: Value, in owner: String, definedAt: String? = nil) throws -> ViewSpec? {
        guard case .table(let ref) = v else {
            if v.isNil { return nil }
            throw RuntimeError(.badReturn, "the view of \(owner) is \(Engine.withArticle(v.typeName)); use {class = \"UIView\", attributes = {...}}", at: definedAt)
        }
        let L = engine.runningThread
        let base = LuaStack(L).top
        defer { LuaStack(L).top = base }
        (ref as! LuaRef).push(L)
        var lastClass: ReusedName?
        return try viewSpec(ofTableAt: LuaStack(L).top, L, in: owner, definedAt: definedAt, lastClass: &lastClass)
    }

    /// `viewSpec` of the value at `index` of `L`'s stack (a view function's result, read where
    /// it lies: a table makes no reference). Anything but a table reads as its value does.
    /// `lastClass`: the class name it read last time (reused when the bytes are the same).
    func viewSpec(at index: Int32, _ L: OpaquePointer, in owner: String, definedAt: String?,
                  lastClass: inout ReusedName?) throws -> ViewSpec? {
        guard LuaStack(L).isTable(index) else {
            return try viewSpec(engine.values.value(at: index, L), in: owner, definedAt: definedAt)
        }
        let base = LuaStack(L).top
        defer { LuaStack(L).top = base }
        return try viewSpec(ofTableAt: index, L, in: owner, definedAt: definedAt, lastClass: &lastClass, ownSlot: true)
    }

    /// The spec of the table at `t` (absolute); leaves what it pushes for the caller to pop.
    /// `ownSlot`: plain attributes may stay in the spec's own arena slot (`ArenaViewSpec`), for a
    /// view function's spec, which nothing reads as a table before it is mounted.
    private func viewSpec(ofTableAt t: Int32, _ L: OpaquePointer, in owner: String, definedAt: String?,
                          lastClass: inout ReusedName?, ownSlot: Bool = false) throws -> ViewSpec {
        guard LuaStack(L).pushViewSpecFields(of: t) == .string, let cls = engine.lua.name(at: -2, on: L, reusing: &lastClass) else {
            throw RuntimeError(.badArgument, "the view of \(owner) needs class = \"UIView\" (a view class name)", at: definedAt)
        }
        if LuaStack(L).type(-1) == .userdata { _ = engine.values.unwrapReadOnlyView(at: -1, L) }   // attributes = props or state
        guard LuaStack(L).isTable(-1) else { return ViewSpec(viewClass: cls) }
        let attrs = LuaStack(L).top
        if LuaStack(L).pushPlainCopy(of: attrs, limit: 64) {
            if ownSlot, let arena = engine.ownership.homeArena { return ArenaViewSpec(viewClass: cls, popping: L, into: arena) }
            return ViewSpec(viewClass: cls, attributes: engine.values.popTable(L))
        }
        return try splitAttributes(at: attrs, L, viewClass: cls)
    }

    /// Attributes with values that may be action attributes (or many of them): the plain ones
    /// copied, the actions split out in order, the turn's limits ticked per attribute.
    private func splitAttributes(at attrs: Int32, _ L: OpaquePointer, viewClass cls: String) throws -> ViewSpec {
        LuaStack(L).newTable(array: 0, fields: 4)
        let plain = LuaStack(L).top
        var keyed: [(String, ActionAttribute)] = []
        let n = LuaStack(L).listLength(attrs)
        LuaStack(L).pushNil()
        while LuaStack(L).next(attrs) {
            try engine.runtime.limits.tick()
            if let a = engine.objects.object(at: -1, L) as? ActionAttribute {
                if LuaStack(L).isInteger(-2), case let i = LuaStack(L).integer(-2), i >= 1, i <= n {
                    keyed.append((String(format6(i)), a))
                } else {
                    keyed.append(("~" + engine.lua.rawDescribe(at: -2, on: L), a))   // a key's __tostring does not run
                }
                LuaStack(L).pop(1)
            } else {
                LuaStack(L).pushValue(at: -2)
                LuaStack(L).insert(at: -2)
                LuaStack(L).set(into: plain)
            }
        }
        let actions = keyed.count < 2 ? keyed.map(\.1) : keyed.sorted { $0.0 < $1.0 }.map(\.1)
        return ViewSpec(viewClass: cls, attributes: engine.values.value(at: plain, L), actions: actions)
    }

    private func format6(_ i: Int64) -> String {
        let s = String(i)
        return String(repeating: "0", count: max(0, 12 - s.count)) + s
    }
}
