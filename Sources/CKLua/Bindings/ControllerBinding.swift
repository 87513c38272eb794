import CKCore

/// `ck.controller(name, def)`, controller classes and controller instances. A controller
/// keeps its script fields (`self.x = …`) in a table anchored while it is alive.
enum ControllerBinding {
    static func register(in engine: Engine) {
        engine.defineMetatable(.controllerClass, index: { args, key in
            let cls: ControllerClass = try args.object(1, "class", "a controller class")
            if key == "name" { args.engine.pushString(cls.name, args.L) } else { args.engine.pushClassField(cls, key, args.L) }
            return 1
        }, newindex: { args, key in
            let cls: ControllerClass = try args.object(1, "class", "a controller class")
            args.engine.setControllerField(cls, key, valueAt: 3, args.L)
            return 0
        }, tostring: { args in
            let cls: ControllerClass = try args.object(1, "class", "a controller class")
            return "<controller class \(cls.name)>"
        })
        engine.defineMetatable(.controller, index: { args, key in
            let k: Controller = try args.object(1, "self", "a controller")
            let e = args.engine, L = args.L
            switch key {
            case "component": e.push(k.component, L)
            case "view": e.push(k.view)
            case "class": e.push(k.controllerClass, L)
            case "name": e.pushString(k.controllerClass.name, L)
            case "scope": e.push(k.scope)
            case "isInvalidated": LuaStack(L).push(k.isInvalidated)
            default:
                e.pushControllerFields(k, L)
                e.pushString(key, L)
                if LuaStack(L).get(from: -2) == .nil {
                    LuaStack(L).pop(2)
                    e.pushClassField(k.controllerClass, key, L)
                } else {
                    LuaStack(L).remove(at: -2)
                }
            }
            return 1
        }, newindex: { args, key in
            let k: Controller = try args.object(1, "self", "a controller")
            if ["component", "view", "class", "name", "scope", "isInvalidated"].contains(key) {
                throw RuntimeError(.badArgument, "\(k.controllerClass.name).\(key) is set by the runtime and cannot be assigned; use another field name")
            }
            args.engine.pushControllerFields(k, args.L)
            LuaStack(args.L).pushValue(at: 2)
            LuaStack(args.L).pushValue(at: 3)
            LuaStack(args.L).set(into: -3)
            return 0
        }, tostring: { args in
            let k: Controller = try args.object(1, "self", "a controller")
            return "<\(k.controllerClass.name) of \(k.component.label)\(k.isInvalidated ? ", invalidated" : "")>"
        })
        engine.setFunction("controller", qualified: "ck.controller") { args in
            let name = try args.string(1, "name")
            if !args.isNil(2) { try args.table(2, "def") }
            let cls = ControllerClass(name: name)
            let L = args.L
            LuaStack(L).newTable(array: 0, fields: 8)
            args.engine.classTables[ObjectIdentifier(cls)] = args.engine.reference(at: -1, L, "table")
            LuaStack(L).pop(1)
            if LuaStack(L).isTable(2) {
                LuaStack(L).pushNil()
                while LuaStack(L).next(2) {
                    if let key = try args.key(at: -2, in: "ck.controller(\"\(name)\")") {
                        args.engine.setControllerField(cls, key, valueAt: LuaStack(L).top, L)
                    }
                    LuaStack(L).pop(1)
                }
            }
            args.engine.runtime.define(cls)
            args.engine.push(cls, L)
            return 1
        }
    }
}

extension Engine {
    func setControllerField(_ cls: ControllerClass, _ key: String, valueAt index: Int32, _ L: OpaquePointer) {
        let index = LuaStack(L).absolute(index)
        if key == "canPerformAction", LuaStack(L).isFunction(index) {
            let claim = predicate(reference(at: index, L, "function"))
            cls.canPerformAction = { k, sel, sender in try claim(.object(k), sel, sender) }
        } else if LuaStack(L).isFunction(index) {
            cls.setMethod(method(at: index, name: key, hasSelf: true, L), named: key)
        } else if LuaStack(L).type(index) == .nil {
            cls.setMethod(nil, named: key)
        }
        storeClassField(cls, key, valueAt: index, L)
    }

    /// The controller's own field table, made on first use and kept while the controller lives.
    func pushControllerFields(_ k: Controller, _ L: OpaquePointer) {
        if let t = controllerFields[ObjectIdentifier(k)], t.controller === k {
            t.ref.push(L)
            return
        }
        if controllerFields.count >= controllerFieldsPruneAt { releaseDeadControllers() }
        LuaStack(L).newTable(array: 0, fields: 4)
        controllerFields[ObjectIdentifier(k)] = ControllerFields(controller: k, ref: reference(at: -1, L, "table"))
    }

    /// Drops the field tables of controllers that are gone; amortized by doubling the threshold.
    func releaseDeadControllers() {
        controllerFields = controllerFields.filter { $0.value.controller != nil }
        controllerFieldsPruneAt = max(64, controllerFields.count * 2)
    }
}
