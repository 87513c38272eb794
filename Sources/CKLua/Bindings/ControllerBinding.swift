import CKCore
import CLua
import CLuaShims

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
            case "isInvalidated": lua_pushboolean(L, k.isInvalidated ? 1 : 0)
            default:
                e.pushControllerFields(k, L)
                e.pushString(key, L)
                if lua_rawget(L, -2) == LUA_TNIL {
                    ck_pop(L, 2)
                    e.pushClassField(k.controllerClass, key, L)
                } else {
                    ck_remove(L, -2)
                }
            }
            return 1
        }, newindex: { args, key in
            let k: Controller = try args.object(1, "self", "a controller")
            if ["component", "view", "class", "name", "scope", "isInvalidated"].contains(key) {
                throw RuntimeError(.badArgument, "\(k.controllerClass.name).\(key) is set by the runtime and cannot be assigned; use another field name")
            }
            args.engine.pushControllerFields(k, args.L)
            lua_pushvalue(args.L, 2)
            lua_pushvalue(args.L, 3)
            lua_rawset(args.L, -3)
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
            lua_createtable(L, 0, 8)
            args.engine.classTables[ObjectIdentifier(cls)] = args.engine.reference(at: -1, L, "table")
            ck_pop(L, 1)
            if lua_type(L, 2) == LUA_TTABLE {
                lua_pushnil(L)
                while lua_next(L, 2) != 0 {
                    if let key = args.engine.lua.string(at: -2, on: L), lua_type(L, -2) == LUA_TSTRING {
                        args.engine.setControllerField(cls, key, valueAt: lua_gettop(L), L)
                    }
                    ck_pop(L, 1)
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
        let index = lua_absindex(L, index)
        if key == "canPerformAction", lua_type(L, index) == LUA_TFUNCTION {
            let claim = predicate(reference(at: index, L, "function"))
            cls.canPerformAction = { k, sel, sender in try claim(.object(k), sel, sender) }
        } else if lua_type(L, index) == LUA_TFUNCTION {
            cls.setMethod(method(at: index, name: key, hasSelf: true, L), named: key)
        } else if lua_type(L, index) == LUA_TNIL {
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
        lua_createtable(L, 0, 4)
        controllerFields[ObjectIdentifier(k)] = ControllerFields(controller: k, ref: reference(at: -1, L, "table"))
    }

    /// Drops the field tables of controllers that are gone; amortized by doubling the threshold.
    func releaseDeadControllers() {
        controllerFields = controllerFields.filter { $0.value.controller != nil }
        controllerFieldsPruneAt = max(64, controllerFields.count * 2)
    }
}
