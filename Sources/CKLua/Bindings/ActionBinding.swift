import CKCore

/// `ck.action`, action objects (`send`, `withBehavior`, `demoted`, `identifier`, `==`),
/// `ck.actionSend`, `ck.onTap`, `ck.onControl` and `ck.registerControlClass`.
enum ActionBinding {
    static func register(in engine: Engine) {
        var methods: [String: Int32] = [:]
        func method(_ name: String, _ body: @escaping (Arguments, Action) throws -> Int32) {
            engine.registerMethod(name, of: "action", into: &methods, body)
        }
        // `send` is C (cksend.c): it answers from a plan when it can, else calls this full send.
        method("send") { args, a in
            let sender = try args.optionalResponder(2, "sender")
            let e = args.engine, L = args.L
            let handled = try e.runtime.send(a, sender: sender, count: Int(max(0, args.count - 2)),
                                             argument: { args.value(Int32($0) + 3) },
                                             onPlan: { e.sendPlans.record($0, for: a, sender: sender, actionAt: 1, engine: e, L) })
            LuaStack(args.L).push(handled)
            return 1
        }
        let leave = engine.registerFunction("action:send") { args in
            try args.engine.runtime.leaveCall()
            return 0
        }
        let abandon = engine.registerFunction("action:send") { args in
            let status = Int32(clamping: LuaStack(args.L).integer(-1))
            LuaStack(args.L).pop(1)
            let failure = args.engine.failure(status)
            args.engine.runtime.abandonCall()
            throw failure
        }
        let fullSend = methods.removeValue(forKey: "send")!
        engine.sendPlans = SendPlans(engine: engine, send: fullSend, leave: leave, abandon: abandon)
        method("withBehavior") { args, a in
            let name = try args.string(2, "behavior")
            guard let b = Action.Behavior(rawValue: name) else {
                throw args.bad(2, "behavior", "\"startAtSender\" or \"startAtSenderNextResponder\"")
            }
            args.engine.push(a.withBehavior(b), args.L)
            return 1
        }
        method("demoted") { args, a in
            args.engine.push(try a.demoted(to: try args.types(2)), args.L)
            return 1
        }
        method("identifier") { args, a in
            args.engine.pushString(a.identifier(), args.L)
            return 1
        }
        engine.defineMetatable(.action, methods: methods, nativeMethods: ["send": { engine.sendPlans.pushSend($0) }],
                               index: { args, key in
            let a: Action = try args.object(1, "self", "an action")
            let e = args.engine, L = args.L
            switch key {
            case "kind": e.pushString(a.kind.rawValue, L)
            case "selector": if let s = a.selector { e.pushString(s, L) } else { LuaStack(L).pushNil() }
            case "types": e.pushStrings(a.types.map(\.description), L)
            case "behavior": e.pushString(a.behavior.rawValue, L)
            case "target": e.push(a.target?.object)
            case "scope": e.push(a.scope)
            default:
                if let id = methods[key] { e.pushFunction(id, L) } else { LuaStack(L).pushNil() }
            }
            return 1
        }, tostring: { args in
            let a: Action = try args.object(1, "self", "an action")
            let types = a.types.isEmpty ? "" : " " + args.engine.describeTypes(a.types)
            switch a.kind {
            case .selector: return "<selector action \(a.selector!)\(types)>"
            case .target: return "<target action \(a.selector!) -> \(a.target!.name)\(types)>"
            case .scope: return "<scope action \(a.selector!) -> \(a.scope?.path ?? "?")\(types)>"
            case .block: return "<block action\(types)>"
            }
        }, extra: { engine in
            engine.setFunction("__eq", qualified: "==") { args in
                let a = args.engine.objects.object(at: 1, args.L) as? Action
                let b = args.engine.objects.object(at: 2, args.L) as? Action
                LuaStack(args.L).push((a != nil && b != nil && a!.isEqual(to: b!)))
                return 1
            }
        })

        engine.setFunction("action", qualified: "ck.action") { args in
            let e = args.engine, L = args.L
            let action: Action
            switch LuaStack(L).type(1) {
            case .string:
                action = e.runtime.selectorAction(try args.string(1, "selector"), types: try args.types(2))
            case .function:
                let m = e.method(at: 1, name: "block", hasSelf: false, L)
                action = e.runtime.blockAction(m, identity: args.value(1), types: try args.types(2))
            default:
                let target = try args.responder(1, "target")
                action = try e.runtime.targetAction(target, try args.string(2, "selector"), types: try args.types(3))
            }
            e.push(action, L)
            return 1
        }
        engine.setFunction("actionSend", qualified: "ck.actionSend") { args in
            let e = args.engine
            let action: Action
            if LuaStack(args.L).isString(1) {
                action = e.runtime.selectorAction(try args.string(1, "selector"), types: [.any])
            } else {
                action = try args.object(1, "action", "an action or a selector string")
            }
            let sender = try args.optionalResponder(2, "sender")
            let context = args.value(3)
            let arguments: [Value] = action.types.isEmpty && context.isNil ? [] : [context]
            LuaStack(args.L).push(try e.runtime.send(action, sender: sender, arguments: arguments))
            return 1
        }
        engine.setFunction("onTap", qualified: "ck.onTap") { args in
            let a: Action? = try args.optionalObject(1, "action", "an action or nil")
            let promoted = try a.map { try args.engine.runtime.conformActionProp($0, declared: [.className("Event")], prop: "onTap", component: "ck") }
            args.engine.push(ActionAttribute(kind: .tap, action: promoted), args.L)
            return 1
        }
        engine.setFunction("onControl", qualified: "ck.onControl") { args in
            let a: Action? = try args.optionalObject(1, "action", "an action or nil")
            var events = ["touchUpInside"]
            if LuaStack(args.L).isString(2) {
                events = [try args.string(2, "events")]
            } else if LuaStack(args.L).isTable(2) {
                events = []
                for i in 1...max(1, LuaStack(args.L).length(2)) where i <= LuaStack(args.L).length(2) {
                    LuaStack(args.L).get(i, from: 2)
                    defer { LuaStack(args.L).pop(1) }
                    guard let s = args.engine.lua.name(at: -1, on: args.L) else { throw args.bad(2, "events", "an event name or a list of names") }
                    events.append(s)
                }
            } else if !args.isNil(2) {
                throw args.bad(2, "events", "an event name or a list of names")
            }
            let promoted = try a.map { try args.engine.runtime.conformActionProp($0, declared: [.className("Event")], prop: "onControl", component: "ck") }
            args.engine.push(ActionAttribute(kind: .control(events: events), action: promoted), args.L)
            return 1
        }
        engine.setFunction("registerControlClass", qualified: "ck.registerControlClass") { args in
            args.engine.runtime.controls.register(try args.string(1, "viewClass"))
            return 0
        }
        engine.setFunction("struct", qualified: "ck.struct") { args in
            let name = try args.string(1, "name")
            try args.table(2, "fields")
            var fields: [(name: String, type: TypeSpec)] = []
            LuaStack(args.L).pushNil()
            while LuaStack(args.L).next(2) {
                defer { LuaStack(args.L).pop(1) }
                guard let field = args.engine.lua.name(at: -2, on: args.L),
                      let typeName = args.engine.lua.name(at: -1, on: args.L) else {
                    throw RuntimeError(.badArgument, "ck.struct(\"\(name)\"): fields must map field names to type names")
                }
                fields.append((field, try args.engine.resolveType(typeName)))
            }
            args.engine.runtime.types.structs[name] = StructType(name: name, fields: fields)
            args.engine.pushString(name, args.L)
            return 1
        }
    }
}
