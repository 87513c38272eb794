import CKCore

/// `ck.action`, action objects (`send`, `withBehavior`, `demoted`, `identifier`, `==`),
/// `ck.actionSend`, `ck.onTap`, `ck.onControl` and `ck.registerControlClass`.
enum ActionBinding {
    typealias Function = (Arguments) throws -> Int32
    typealias Method = (Arguments, Action) throws -> Int32

    /// `ck.*` functions.
    static var functions: [(String, Function)] {
        [("action", action), ("actionSend", actionSend), ("registerControlClass", registerControlClass), ("struct", defineStruct)]
            + Gesture.Kind.allCases.map { ($0.traits.function, attribute($0)) }  // onTap, onControl
    }

    /// Methods of action objects (`send` is C's, see `registerSend`).
    static var methods: [(String, Method)] {
        [("withBehavior", withBehavior), ("demoted", demoted), ("identifier", identifier)]
    }

    static func register(in engine: Engine) {
        var ids: [String: Int32] = [:]
        for (name, body) in methods { engine.functions.registerMethod(name, of: "action", into: &ids, body) }
        registerSend(in: engine)
        engine.functions.defineMetatable(.action, methods: ids, nativeMethods: ["send": { engine.sendPlans.pushSend($0) }],
                               index: { args, key in try index(args, key, methods: ids) }, tostring: tostring,
                               extra: { $0.functions.setFunction("__eq", qualified: "==", equal) })
        engine.functions.setFunctions(functions, prefix: "ck.")
    }

    /// `action:send` is C (cksend.c): it answers from a plan when it can, else calls `send`;
    /// `leave` and `abandon` end a planned send's runtime call.
    private static func registerSend(in engine: Engine) {
        var ids: [String: Int32] = [:]
        engine.functions.registerMethod("send", of: "action", into: &ids, send)
        let leave = engine.functions.registerFunction("action:send") { args in
            let call = Int(LuaStack(args.L).integer(-1))
            LuaStack(args.L).pop(1)
            try args.engine.runtime.leaveCall(call)
            return 0
        }
        let abandon = engine.functions.registerFunction("action:send") { args in
            let status = Int32(clamping: LuaStack(args.L).integer(-1))
            let call = Int(LuaStack(args.L).integer(-2))
            LuaStack(args.L).pop(2)
            let failure = args.engine.values.failure(status)
            if let f = failure as? ScriptFailure, let a: Action = try? args.object(1, "self", "an action") {
                args.engine.runtime.notePlannedFailure(f.message, action: a, sender: try? args.optionalResponder(2, "sender"))
            }
            args.engine.runtime.abandonCall(call, after: failure)
            throw failure
        }
        engine.sendPlans = SendPlans(engine: engine, send: ids["send"]!, leave: leave, abandon: abandon)
    }

    /// The full send: checks, walks the chain, calls the handler, records a plan.
    static func send(_ args: Arguments, _ a: Action) throws -> Int32 {
        let sender = try sender(args, of: a)
        let e = args.engine, L = args.L
        let handled = try e.runtime.send(a, sender: sender, count: Int(max(0, args.count - 2)),
                                         argument: { args.value(Int32($0) + 3) },
                                         onPlan: { e.sendPlans.record($0, for: a, sender: sender, actionAt: 1, engine: e, L) })
        LuaStack(args.L).push(handled)
        return 1
    }

    /// Argument 2 of a send; a wrong one is named with the send's selector
    /// (`action:send of "pick": argument #2 (sender) must be …`).
    private static func sender(_ args: Arguments, of a: Action) throws -> Responder? {
        do { return try args.optionalResponder(2, "sender") } catch let e as RuntimeError {
            guard e.detail.hasPrefix(args.function + ":") else { throw e }
            let of = a.selector.map { " of \"\(Excerpt.text($0))\"" } ?? " of a block action"
            throw RuntimeError(e.id, args.function + of + e.detail.dropFirst(args.function.count), at: e.location)
        }
    }

    static func withBehavior(_ args: Arguments, _ a: Action) throws -> Int32 {
        let name = try args.string(2, "behavior")
        guard let b = Action.Behavior(rawValue: name) else {
            throw args.bad(2, "behavior", "\"startAtSender\" or \"startAtSenderNextResponder\"")
        }
        args.engine.values.push(a.withBehavior(b), args.L)
        return 1
    }

    static func demoted(_ args: Arguments, _ a: Action) throws -> Int32 {
        args.engine.values.push(try a.demoted(to: try args.types(2)), args.L)
        return 1
    }

    static func identifier(_ args: Arguments, _ a: Action) throws -> Int32 {
        args.engine.values.pushString(a.identifier(), args.L)
        return 1
    }

    static func index(_ args: Arguments, _ key: String, methods: [String: Int32]) throws -> Int32 {
        let a: Action = try args.object(1, "self", "an action")
        let e = args.engine, L = args.L
        switch key {
        case "kind": e.values.pushString(a.kind.rawValue, L)
        case "selector": if let s = a.selector { e.values.pushString(s, L) } else { LuaStack(L).pushNil() }
        case "types": e.values.pushStrings(a.types.map(\.description), L)
        case "behavior": e.values.pushString(a.behavior.rawValue, L)
        case "target": e.values.push(a.target?.object)
        case "scope": e.values.push(a.scope)
        default:
            if let id = methods[key] { SwiftFunctions.pushFunction(id, L) } else { LuaStack(L).pushNil() }
        }
        return 1
    }

    static func tostring(_ args: Arguments) throws -> String {
        let a: Action = try args.object(1, "self", "an action")
        let types = a.types.isEmpty ? "" : " " + ObjectText.name(ClassBridge.describeTypes(a.types))
        let selector = ObjectText.name(a.selector ?? "")
        switch a.kind {
        case .selector: return "<selector action \(selector)\(types)>"
        case .target: return "<target action \(selector) -> \(a.target?.name ?? "(freed)")\(types)>"
        case .scope: return "<scope action \(selector) -> \(a.scope?.shownPath ?? "?")\(types)>"
        case .block: return "<block action\(types)>"
        }
    }

    static func equal(_ args: Arguments) throws -> Int32 {
        let a = args.engine.objects.object(at: 1, args.L) as? Action
        let b = args.engine.objects.object(at: 2, args.L) as? Action
        LuaStack(args.L).push(a != nil && b != nil && a!.isEqual(to: b!))
        return 1
    }

    static func action(_ args: Arguments) throws -> Int32 {
        let e = args.engine, L = args.L
        let action: Action
        switch LuaStack(L).type(1) {
        case .string:
            action = e.runtime.selectorAction(try args.string(1, "selector"), types: try args.types(2))
        case .function,
             .table where LuaStack(L).isCallableTable(1) && !LuaStack(L).isString(2):
            // A callable table (a spy) is a block too, unless a selector follows: then it is a
            // target responder table (`ck.action(t, "m")`).
            // The block lives in an arena of the action's own (Ownership.swift), in a build too:
            // in the host's rooted arena, a render's `ck.action(function() self:x() end)` kept
            // each generation alive through the component its closure names (atk-mem 01).
            let own = e.ownership.newArena()
            own.expectsRescue = true
            action = try e.ownership.withHome(.arena(own)) {
                let m = LuaStack(L).isFunction(1) ? e.values.method(at: 1, name: "block", hasSelf: false, L)
                    : e.values.callableMethod(at: 1, name: "block", hasSelf: false, L)
                return e.runtime.blockAction(m, identity: args.value(1), types: try args.types(2))
            }
            own.owner = ObjectIdentifier(action)
        default:
            let target = try args.responder(1, "target")
            action = try e.runtime.targetAction(target, try args.string(2, "selector"), types: try args.types(3))
        }
        e.values.push(action, L)
        return 1
    }

    static func actionSend(_ args: Arguments) throws -> Int32 {
        let e = args.engine
        let action: Action
        if LuaStack(args.L).isString(1) {
            action = e.runtime.selectorAction(try args.string(1, "selector"), types: [.any])
        } else {
            action = try args.object(1, "action", "an action or a selector string")
        }
        let sender = try sender(args, of: action)
        let context = args.value(3)
        let arguments: [Value] = action.types.isEmpty && context.isNil ? [] : [context]
        LuaStack(args.L).push(try e.runtime.send(action, sender: sender, arguments: arguments))
        return 1
    }

    /// `ck.onTap(action)`, `ck.onControl(action, events)`: an attribute of `kind`, its action
    /// promoted to `{"Event"}`; a kind that lists events takes them as argument 2.
    static func attribute(_ kind: Gesture.Kind) -> Function {
        { args in
            let a = try args.optionalAction(1, "action")
            let events = kind.traits.listsEvents ? try eventNames(args) : nil
            if let events { NameCheck.controlEvents(events, engine: args.engine, L: args.L) }
            let promoted = try a.map { try args.engine.runtime.conformActionProp($0, declared: [.className("Event")], prop: kind.traits.function, component: "ck") }
            args.engine.values.push(ActionAttribute(kind: kind, events: events, action: promoted), args.L)
            return 1
        }
    }

    /// Argument 2 of `ck.onControl`: an event name, a list of them, or nil (the kind's default,
    /// `touchUpInside`).
    private static func eventNames(_ args: Arguments) throws -> [String]? {
        let stack = LuaStack(args.L)
        if stack.isString(2) { return [try args.string(2, "events")] }
        if args.isNil(2) { return nil }
        guard args.isTable(2) else { throw args.bad(2, "events", "an event name or a list of names") }
        var events: [String] = []
        try args.engine.values.forEachItem(ofList: 2, args.L) { _ in
            guard let s = args.engine.lua.name(at: -1, on: args.L) else { throw args.bad(2, "events", "an event name or a list of names") }
            events.append(s)
        }
        return events
    }

    static func registerControlClass(_ args: Arguments) throws -> Int32 {
        let name = try args.string(1, "viewClass")
        if !args.engine.runtime.controls.contains(name) { args.engine.keepForGood(name) }
        args.engine.runtime.controls.register(name)
        return 0
    }

    static func defineStruct(_ args: Arguments) throws -> Int32 {
        let name = try args.string(1, "name")
        // A type name means one thing: a struct named like a class or a built-in type would
        // change what actions already made with that name accept.
        try args.engine.runtime.claimTypeName(name, as: .structure, in: "ck.struct")
        try args.table(2, "fields")
        var fields: [(name: String, type: TypeSpec)] = []
        LuaStack(args.L).pushNil()
        while LuaStack(args.L).next(2) {
            defer { LuaStack(args.L).pop(1) }
            try args.engine.runtime.limits.tick()
            guard let field = args.engine.lua.name(at: -2, on: args.L),
                  let typeName = args.engine.lua.name(at: -1, on: args.L) else {
                throw RuntimeError(.badArgument, "ck.struct(\"\(Excerpt.text(name))\"): fields must map field names to type names")
            }
            fields.append((field, try Arguments.resolveType(typeName, args.engine.runtime)))
        }
        if args.engine.runtime.types.structs[name] == nil { args.engine.keepForGood(name + fields.map(\.name).joined()) }
        args.engine.runtime.types.structs[name] = StructType(name: name, fields: fields, definedAt: args.engine.runtime.currentLocation())
        args.engine.values.pushString(name, args.L)
        return 1
    }
}
