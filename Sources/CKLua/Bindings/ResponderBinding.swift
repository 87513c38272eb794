import CKCore

/// `ck.nextResponder`, `ck.responderChain`, `ck.targetForAction`, `ck.trace`, trace entries.
enum ResponderBinding {
    typealias Function = (Arguments) throws -> Int32

    /// `ck.*` functions.
    static var functions: [(String, Function)] {
        [("nextResponder", nextResponder), ("responderChain", responderChain),
         ("targetForAction", targetForAction), ("trace", trace)]
    }

    static func register(in engine: Engine) {
        engine.functions.defineMetatable(.traceEntry, index: traceEntryField, tostring: { args in
            let t: Tracer.Entry = try args.object(1, "self", "a trace entry")
            return t.line
        })
        engine.functions.setFunctions(functions, prefix: "ck.")
    }

    static func nextResponder(_ args: Arguments) throws -> Int32 {
        let r = try args.responder(1, "responder")
        args.engine.values.push(args.engine.runtime.nextResponder(r)?.object)
        return 1
    }

    static func responderChain(_ args: Arguments) throws -> Int32 {
        let r = try args.responder(1, "responder")
        args.engine.values.pushList(args.engine.runtime.responderChain(from: r).map(\.object), args.L)
        return 1
    }

    static func targetForAction(_ args: Arguments) throws -> Int32 {
        let r = try args.responder(1, "responder")
        let selector = try args.string(2, "selector")
        let sender = try args.optionalResponder(3, "sender")
        args.engine.values.push(try args.engine.runtime.target(for: selector, from: r, sender: sender)?.object)
        return 1
    }

    /// `ck.trace(fn)`: runs `fn` and returns the sends it made, as trace entries.
    static func trace(_ args: Arguments) throws -> Int32 {
        let f = try args.callable(1, "fn")
        let e = args.engine
        let tracer = Tracer(parent: e.runtime.tracer, limits: e.runtime.limits)
        e.runtime.tracer = tracer
        defer { e.runtime.tracer = tracer.parent }
        try e.values.call(f, [], results: 0)
        if tracer.isTruncated {
            e.runtime.warnHere(.memoryLimit, "ck.trace kept the first \(tracer.entries.count) sends only (at most \(Tracer.recordLimit) sends and visits, within --memory-limit); trace a smaller function")
        }
        e.values.pushList(tracer.entries, args.L)
        return 1
    }

    static func traceEntryField(_ args: Arguments, _ key: String) throws -> Int32 {
        let t: Tracer.Entry = try args.object(1, "self", "a trace entry")
        let e = args.engine, L = args.L
        switch key {
        case "selector": e.values.pushString(t.selector, L)
        case "sender": e.values.push(t.sender?.object)
        case "handled": LuaStack(L).push(t.handled)
        case "handler": e.values.push(t.handler?.object)
        case "responders": e.values.pushList(t.visited.map(\.responder.object), L)
        case "visited": pushVisits(t.visited, e, L)
        case "line": e.values.pushString(t.line, L)
        default: LuaStack(L).pushNil()
        }
        return 1
    }

    /// `entry.visited`: `{{responder = r, handled = bool}, …}` in the order asked.
    private static func pushVisits(_ visited: [(responder: Responder, handled: Bool)], _ e: Engine, _ L: OpaquePointer) {
        LuaStack(L).newTable(array: visited.count, fields: 0)
        for (i, v) in visited.enumerated() {
            LuaStack(L).newTable(array: 0, fields: 2)
            e.values.push(v.responder.object, L)
            LuaStack(L).setField("responder", of: -2)
            LuaStack(L).push(v.handled)
            LuaStack(L).setField("handled", of: -2)
            LuaStack(L).set(i + 1, into: -2)
        }
    }
}
