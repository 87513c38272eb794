/// The handler whose error a send passed on. SPEC §6.3: the error reaches the caller as the
/// handler raised it (a `pcall` or `assert.has_error` around the send sees the script's own
/// error); where ckrun reports an error itself, it names the handler with `[actionFailed]`.
public struct HandlerFailure: Sendable {
    /// The handler's error message, as it reached the caller.
    public let message: String
    /// `Card.pick of List/Card#2 (handling "pick")`: the handler and where it sits.
    public let place: String

    /// The `[actionFailed]` line naming the handler, for `message` when it was this failure's;
    /// none for Ctrl-C's `[interrupted]`, which is the user's, not the handler's.
    public func line(for message: String) -> String? {
        guard message == self.message, !ScriptErrors.isInterrupt(message: message) else { return nil }
        return Catalogue.actionFailed.message("\(place) raised:")
    }
}

extension Runtime {
    /// Calls a send's handler; a script error passes on unchanged, the handler noted.
    @inline(__always)
    func callHandler(_ m: Method, of r: Responder?, selector: String?, _ call: [Value]) throws {
        do { try m.call(r, call) } catch let e as ScriptFailure {
            lastHandlerFailure = HandlerFailure(message: e.message, place: r == nil ? Self.blockPlace(m, sender: call.first) : Self.place(m.name, r, selector))
            throw e
        } catch let e as RuntimeError where e.id == .yieldAcrossRuntime {
            throw ScriptErrors.namingYield(e, in: Self.place(m.name, r, selector))
        }
    }

    /// Forgets the noted handler (the command line, before it runs a chunk).
    public func clearHandlerFailure() { lastHandlerFailure = nil }

    /// A planned send's handler raised (its walk asked no one): notes the handler it found.
    public func notePlannedFailure(_ message: String, action: Action, sender: Responder?) {
        if let block = action.block {
            lastHandlerFailure = HandlerFailure(message: message, place: Self.blockPlace(block, sender: sender?.value))
            return
        }
        guard let start = walkStart(action, sender: sender) else { return }
        var current = start
        while let r = current {
            if case .found(let m) = lookup(r, action) {
                lastHandlerFailure = HandlerFailure(message: message, place: Self.place(m.name, r, action.selector))
                return
            }
            current = nextResponder(r)
        }
    }

    /// `the block action (function at app.lua:6) sent by List/Stack/Row#c/Button`: where the
    /// block was defined and who sent it, as a scope action's place names its component.
    static func blockPlace(_ block: Method, sender: Value?) -> String {
        let defined = block.script?.definition.map { " (function at \($0))" } ?? ""
        let sentBy: String
        switch sender.flatMap({ $0.object }) {
        case let c as Component: sentBy = " sent by \(c.shownPath)"
        case let k as Controller: sentBy = " sent by the controller of \(k.component.shownPath)"
        case let v as View: sentBy = v.component.map { " sent by the \(v.viewClass) of \($0.shownPath)" } ?? " sent by \(Article.with(v.viewClass))"
        default: sentBy = ""   // no sender (`action:send()`), or a host responder table
        }
        return "the block action\(defined)\(sentBy)"
    }

    /// `Card.pick of List/Card#2 (handling "pick")`: a responder's function `name` and where it sits.
    static func place(_ name: String, _ r: Responder?, _ selector: String?) -> String {
        let handling = selector.map { " (handling \"\(Excerpt.text($0))\")" } ?? ""
        switch r {
        case .component(let c): return "\(c.componentClass.shownName).\(name) of \(c.shownPath)\(handling)"
        case .controller(let k): return "\(k.controllerClass.shownName).\(name) of \(k.component.shownPath)\(handling)"
        case .script(let s): return "\(s.shownName).\(name), a host responder\(handling)"
        case .view(let v): return "\(v.viewClass).\(name)\(handling)"
        case nil: return "the function of a block action"
        }
    }
}
