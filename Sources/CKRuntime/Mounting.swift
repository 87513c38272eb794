import CKCore
import CKLua

extension Runtime {
    /// Hosts `provider` (a component class, standing for `Class(model)`, or a function
    /// `provider(model)` returning one component) with `model`, builds it and mounts it; Swift
    /// `responders` follow the hosting view on its responder chain, in order. A provider from
    /// another runtime is ``ErrorID/badArgument``.
    public func mount(_ provider: ScriptObject, model: ScriptValue = nil,
                      responders: [HostResponder] = []) throws(ScriptError) -> ComponentHost {
        try exclusive { held throws(ScriptError) -> ComponentHost in try mount(held, provider, model: model, responders: responders) }
    }

    private func mount(_ held: borrowing Held, _ provider: ScriptObject, model: ScriptValue,
                       responders: [HostResponder]) throws(ScriptError) -> ComponentHost {
        let providerValue = try provider.raw(held, in: self, as: "mount's provider")
        let handlers = SwiftHandlers()
        var tables: [Value] = []
        for r in responders { tables.append(try responderTable(held, r, keepingHandlersIn: handlers)) }
        let responderList = tables.isEmpty ? Value.nil : try listOf(held, tables)
        let made: [Value]
        do { made = try glue(held, "host", [providerValue, try lua(held, model), responderList]) } catch {
            handlers.release()
            throw error
        }
        let host = ComponentHost(made.first ?? .nil, runtime: self, handlers: handlers)
        try glue(held, "mount", [host.object(held)])
        return host
    }

    /// ``mount(_:model:responders:)-(_,ScriptValue,_)`` with an `Encodable` model (a struct as a table of its fields).
    public func mount(_ provider: ScriptObject, model: some Encodable,
                      responders: [HostResponder] = []) throws(ScriptError) -> ComponentHost {
        try mount(provider, model: try ScriptValue.encoding(model), responders: responders)
    }

    private func listOf(_ held: borrowing Held, _ values: [Value]) throws(ScriptError) -> Value {
        do { return try held.engine.tools.list(values) } catch { throw afterRefusal(held, ScriptError(error, otherwise: .stackLimit)) }
    }

    /// `{name = ..., methods = {selector = function(self, sender, ...) end}}` with Swift methods,
    /// whose handlers `handlers` keeps (the host's, released with it).
    func responderTable(_ held: borrowing Held, _ responder: HostResponder, keepingHandlersIn handlers: SwiftHandlers) throws(ScriptError) -> Value {
        let tools = held.engine.tools
        let marshal = held.marshal
        let name = responder.name
        let methods = responder.handlers.map { entry in
            let index = handlers.add(entry.handler)
            let selector = entry.selector
            return (selector, tools.function { arguments throws(LuaError) in
                guard let handler = handlers.handler(index) else {
                    throw LuaError(message: Catalogue.hostDestroyed.message("\(selector) (a Swift handler): its host was destroyed or dropped, and its Swift handlers with it"))
                }
                try Runtime.handle(selector, of: name, handler, arguments, marshal)
                return []
            })
        }
        let made = try glue(held, "responder", [.string(responder.name), tools.table(methods)])
        return made.first ?? .nil
    }

    /// Runs a Swift handler with `arguments` (self, the sender, then the action's arguments);
    /// its error is raised in Lua as the handler's. A handler that ran past the call's timeout
    /// is `[timeout]` naming it: the watchdog's hook would strike at the next Lua instruction
    /// and blame a loop, where no Lua ran (attack embed 02).
    static func handle(_ selector: String, of responder: String, _ handler: HostResponder.Handler, _ arguments: [Value],
                       _ marshal: Marshal) throws(LuaError) {
        let sender = arguments.count > 1 ? try marshal.swift(arguments[1], named: "the sender", context: "of \"\(Excerpt.text(selector))\"") : .nil
        let rest = arguments.count > 2 ? try marshal.swift(Array(arguments[2...]), names: { "argument #\($0 + 1)" }, context: "of \"\(Excerpt.text(selector))\"") : []
        let senderName = sender.isNil ? nil : String(describing: sender.objectName)
        let intime = !marshal.engine.deadlinePassed
        let started = ContinuousClock.now
        do {
            try handler(ActionCall(selector: selector, sender: senderName, arguments: rest, responder: responder))
            if intime, marshal.engine.deadlinePassed {
                throw LuaError(message: Catalogue.timeout.message(handlerOverran(selector, of: responder, sender: senderName, since: started)))
            }
        } catch let e as LuaError {
            throw e
        } catch let e as ScriptError {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch {
            // An error of the program's own: the id says a handler failed, the text which one.
            throw LuaError(message: Catalogue.actionFailed.message("\(selector) (a Swift handler) failed: \(error)"))
        }
    }
}

/// What a Swift handler that ran past the timeout is told: which one, for how long, what to do.
private func handlerOverran(_ selector: String, of responder: String, sender: String?, since started: ContinuousClock.Instant) -> String {
    let took = ContinuousClock.now - started
    let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) * 1e-18
    let from = sender.map { ", sent by " + Excerpt.text($0) } ?? ""
    return "the Swift handler \(Excerpt.text(responder)).\(Excerpt.text(selector)) (responder \(Excerpt.text(responder))\(from)) ran \((seconds * 100).rounded() / 100) s, past the call's time limit; no Lua was running: return from the handler sooner (move slow work off the call) or raise Configuration.timeout"
}

extension ScriptValue {
    var objectName: String {
        switch self {
        case .object(let name), .string(let name): name
        default: "\(self)"
        }
    }
}
