import CKCore

extension Turn {
    /// Taps `component` as `host:tap` taps what its query finds (`Host.tap(_:)`: each tap action,
    /// then each `touchUpInside` control action, SPEC §7), traced: `trace` gets the sends made,
    /// each with the responders asked, the one that handled it and what its handler received,
    /// also when a handler raised. Returns the number of actions sent.
    public func tap(_ component: Component, of host: Host, trace: inout [Tracer.Entry]) throws(LuaError) -> Int {
        try traced(&trace) { try host.tap(component) }
    }

    /// Fires `component`'s control actions for `name` as `host:controlEvent(component, name, text)`
    /// does, traced as `tap` is (the live view's text fields and switches).
    public func controlEvent(_ component: Component, _ name: String, text: String?, of host: Host,
                             trace: inout [Tracer.Entry]) throws(LuaError) -> Int {
        try traced(&trace) { try host.controlEvent(component, name, text: text) }
    }

    private func traced(_ trace: inout [Tracer.Entry], _ send: () throws -> Int) throws(LuaError) -> Int {
        let runtime = engine.runtime
        let tracer = Tracer(parent: runtime.tracer, limits: runtime.limits)
        runtime.tracer = tracer
        defer { runtime.tracer = tracer.parent }
        var sent = 0
        engine.forgetInnerTraceback()
        do throws(LuaError) {
            try engine.protect { sent = try send() }
        } catch {
            trace = tracer.entries
            throw engine.restoringInnerTraceback(error)
        }
        trace = tracer.entries
        return sent
    }
}
