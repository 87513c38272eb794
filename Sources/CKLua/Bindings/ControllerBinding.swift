import CKCore

/// `ck.controller(name, def)`, controller classes and controller instances. A controller
/// keeps its script fields (`self.x = …`) in a table anchored while it is alive.
enum ControllerBinding {
    /// Fields the runtime sets on a controller: a script cannot assign them.
    static let runtimeFields: Set<String> = ["component", "view", "class", "name", "scope", "isInvalidated"]

    static func register(in engine: Engine) {
        engine.functions.defineMetatable(.controllerClass, index: classField, newindex: setClassField, tostring: { args in
            let cls: ControllerClass = try args.object(1, "class", "a controller class")
            return "<controller class \(cls.shownName)>"
        })
        let reactCalls = ReactNames.register(in: engine, onController: true)
        engine.functions.defineMetatable(.controller, index: { args, key in try fields(args, key, reactCalls: reactCalls) }, newindex: setField, tostring: { args in
            let k: Controller = try args.object(1, "self", "a controller")
            return "<\(k.controllerClass.shownName) of \(k.component.label)\(k.isInvalidated ? ", invalidated" : "")>"
        })
        engine.functions.setFunctions([("controller", controller)], prefix: "ck.")
    }

    /// `ck.controller(name, def)`.
    static func controller(_ args: Arguments) throws -> Int32 {
        let name = try args.string(1, "name")
        if !args.isNil(2) { try args.table(2, "def") }
        try args.engine.runtime.claimTypeName(name, as: .controllerClass, in: "ck.controller")
        let cls = ControllerClass(name: name)
        let e = args.engine, L = args.L
        try e.ownership.defining(cls) { _ in
            LuaStack(L).newTable(array: 0, fields: 8)
            cls.scriptTable = e.values.reference(at: -1, L, .table)
            LuaStack(L).pop(1)
            try e.classes.configurator(for: cls, L).define(from: 2)
        }
        if e.runtime.controllerClasses[name] == nil { e.keepForGood(name) }
        e.ownership.register(cls)
        e.values.push(cls, L)
        return 1
    }

    static func classField(_ args: Arguments, _ key: String) throws -> Int32 {
        let cls: ControllerClass = try args.object(1, "class", "a controller class")
        return ClassFields.get(args, cls, named: cls.name, key)
    }

    /// `Class.key = value`: configures the class as its definition would.
    static func setClassField(_ args: Arguments, _ key: String) throws -> Int32 {
        let cls: ControllerClass = try args.object(1, "class", "a controller class")
        return try ClassFields.set(args, cls, args.engine.classes.configurator(for: cls, args.L), key)
    }

    /// `self.x = v`: a script field, unless the runtime sets it.
    static func setField(_ args: Arguments, _ key: String) throws -> Int32 {
        let k: Controller = try args.object(1, "self", "a controller")
        if runtimeFields.contains(key) {
            throw RuntimeError(.badArgument, "\(k.controllerClass.shownName).\(Excerpt.text(key)) is set by the runtime and cannot be assigned; use another field name")
        }
        pushScriptFields(of: k, args.engine, args.L)
        LuaStack(args.L).pushValue(at: 2)
        LuaStack(args.L).pushValue(at: 3)
        LuaStack(args.L).set(into: -3)
        return 0
    }

    /// A controller's fields: the runtime's first, then its script fields, then its class's, then
    /// for a React method name none of them has (`setState`), a function raising `[reactName]`.
    static func fields(_ args: Arguments, _ key: String, reactCalls: ReactNames.Calls) throws -> Int32 {
        let k: Controller = try args.object(1, "self", "a controller")
        let e = args.engine, L = args.L
        switch key {
        case "component": e.values.push(k.component, L)
        case "view": e.values.push(k.view)
        case "class": e.values.push(k.controllerClass, L)
        case "name": e.values.pushString(k.controllerClass.name, L)
        case "scope": e.values.push(k.scope)
        case "isInvalidated": LuaStack(L).push(k.isInvalidated)
        default:
            pushScriptFields(of: k, e, L)
            e.values.pushString(key, L)
            if LuaStack(L).get(from: -2) == .nil {
                LuaStack(L).pop(2)
                e.classes.pushField(k.controllerClass, key, L)
                if LuaStack(L).isNil(-1), let id = reactCalls[key] {
                    LuaStack(L).pop(1)
                    SwiftFunctions.pushFunction(id, L)
                }
            } else {
                LuaStack(L).remove(at: -2)
            }
        }
        return 1
    }

    /// The controller's own field table, made on first use and released with the controller. It
    /// lives in the controller's host's arena: the fields may name the host or its tree. Its
    /// handle is at 1 (a field read or write), through which a finalizer finds the arena again.
    static func pushScriptFields(of k: Controller, _ e: Engine, _ L: OpaquePointer) {
        if let t = k.scriptFields as? LuaRef {
            e.values.refindArena(of: .table(t), heldByHandleAt: 1, kind: .controller, L)
            t.push(L)
            return
        }
        LuaStack(L).newTable(array: 0, fields: 4)
        let home = k.scope?.host.flatMap(e.ownership.arena(of:)).map(Home.arena) ?? .registry
        k.scriptFields = e.ownership.withHome(home) { e.values.reference(at: -1, L, .table) }
    }
}
