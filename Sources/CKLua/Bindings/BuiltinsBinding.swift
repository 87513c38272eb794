import CKCore

/// The built-in classes (`ck.Stack`, `ck.View`, `ck.Text`, `ck.Button`), each made from its
/// declaration in `Builtin.all`: its children, child and view follow from its props' roles
/// (`ChildLists`, `BuiltinViews`); nothing here names a built-in.
enum BuiltinsBinding {
    static func register(in engine: Engine) {
        for builtin in Builtin.all { define(builtin, in: engine) }
        engine.runtime.childEntryIndices = { [unowned(unsafe) engine] parent in
            guard let prop = parent.componentClass.builtin?.made.children else { return nil }
            return ChildLists(engine: engine, L: engine.runningThread).entryIndices(inList: prop, of: parent)
        }
    }

    /// Makes `ck[builtin.name]`, the `ck` table on top of the main thread's stack. The closures
    /// capture the engine unowned(unsafe), as every class's do (see ClassBridge.defineComponent).
    static func define(_ builtin: Builtin, in engine: Engine) {
        let L = engine.lua.L
        let cls = try! engine.classes.defineComponent(builtin.name, defAt: 0, L)
        cls.builtin = builtin
        let made = builtin.made
        cls.actionProps = made.actions.map { (name: $0.prop, types: BuiltinProp.actionTypes) }
        if let prop = made.children {
            cls.children = { [unowned(unsafe) engine] c in try ChildLists(engine: engine, L: engine.runningThread).children(of: c, prop: prop) }
        }
        if let prop = made.child {
            cls.render = { [unowned(unsafe) engine] c in try ChildLists(engine: engine, L: engine.runningThread).child(of: c, prop: prop) }
        }
        if builtin.mountsView {
            cls.view = { [unowned(unsafe) engine] c in try BuiltinViews(engine: engine, builtin: builtin).spec(of: c) }
        }
        // A built-in sending control events mounts a control (`ck.onControl` would need it registered).
        if let viewClass = builtin.viewClass, made.actions.contains(where: { $0.sentOn.kind.traits.needsControl }) {
            engine.runtime.controls.register(viewClass)
        }
        engine.values.push(cls, L)
        LuaStack(L).setField(builtin.name, of: -2)
    }
}
