import CKCore
import CKLua

extension Runtime {
    /// Hosts `provider` (a component class, standing for `Class(model)`, or a function
    /// `provider(model)` returning one component) with `model`, builds it and mounts it; Swift
    /// `responders` follow the hosting view on its responder chain, in order. A provider from
    /// another runtime is ``ErrorID/badArgument``.
    public func mount(_ provider: ScriptObject, model: ScriptValue = nil,
                      responders: [HostResponder] = []) throws(ScriptError) -> Host {
        let providerValue = try provider.raw(in: self, as: "mount's provider")
        let tables = try responders.map { r throws(ScriptError) in try responderTable(r) }
        let responderList = tables.isEmpty ? Value.nil : try listOf(tables)
        let made = try glue("host", [providerValue, try lua(model), responderList])
        let host = Host(made.first ?? .nil, runtime: self)
        try host.mount()
        return host
    }

    /// ``mount(_:model:responders:)-(_,ScriptValue,_)`` with an `Encodable` model (a struct as a table of its fields).
    public func mount(_ provider: ScriptObject, model: some Encodable,
                      responders: [HostResponder] = []) throws(ScriptError) -> Host {
        try mount(provider, model: try ScriptValue.encoding(model), responders: responders)
    }

    private func listOf(_ values: [Value]) throws(ScriptError) -> Value {
        do { return try engine.tools.list(values) } catch { throw afterRefusal(ScriptError(error, otherwise: .stackLimit)) }
    }

    /// `{name = ..., methods = {selector = function(self, sender, ...) end}}` with Swift methods.
    func responderTable(_ responder: HostResponder) throws(ScriptError) -> Value {
        try checkThread()   // its closures and table are made in the Lua state
        let tools = engine.tools
        let marshal = self.marshal
        let methods = responder.handlers.map { entry in
            (entry.selector, tools.function { arguments throws(LuaError) in
                try Runtime.handle(entry.selector, entry.handler, arguments, marshal)
                return []
            })
        }
        let made = try glue("responder", [.string(responder.name), tools.table(methods)])
        return made.first ?? .nil
    }

    /// Runs a Swift handler with `arguments` (self, the sender, then the action's arguments);
    /// its error is raised in Lua as the handler's.
    static func handle(_ selector: String, _ handler: HostResponder.Handler, _ arguments: [Value],
                       _ marshal: Marshal) throws(LuaError) {
        let sender = arguments.count > 1 ? try marshal.swift(arguments[1]) : .nil
        let rest = arguments.count > 2 ? try marshal.swift(Array(arguments[2...])) : []
        do {
            try handler(ActionCall(selector: selector, sender: sender.isNil ? nil : String(describing: sender.objectName), arguments: rest))
        } catch let e as ScriptError {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch {
            // An error of the program's own: the id says a handler failed, the text which one.
            throw LuaError(message: Catalogue.actionFailed.message("\(selector) (a Swift handler) failed: \(error)"))
        }
    }
}

extension ScriptValue {
    var objectName: String {
        switch self {
        case .object(let name), .string(let name): name
        default: "\(self)"
        }
    }
}
