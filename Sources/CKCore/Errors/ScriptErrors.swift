/// How an error of script code the core calls on its own (a lifecycle callback) reaches the
/// caller: with a catalogue id and where it was raised (the callback, the component's path),
/// then the script's own message and traceback. One wrapper, so no such call reports bare.
public enum ScriptErrors {
    /// Runs `body`; an error of its script becomes `[id] where raised: message`.
    static func attributed(_ id: Catalogue, _ place: @autoclosure () -> String, _ body: () throws -> Void) throws {
        do { try body() } catch {
            if passesThrough(error) { throw namingYield(error, in: place()) }
            throw attributing(error, id, place())
        }
    }

    /// `error` as `[id] place raised: message`, followed by the traceback taken where it was
    /// raised, as `[buildFailed]` carries the render's: the error value itself holds it (a
    /// traceback taken where it reaches the caller has none of the callback's frames). Ctrl-C's
    /// `[interrupted]` is never wrapped (`isInterrupt`).
    public static func attributing(_ error: Error, _ id: Catalogue, _ place: String) -> Error {
        wrapping(error) { id.message("\(place) raised: \($0)") }
    }

    /// The one way an error of script code the runtime called (a lifecycle callback, a timer, a
    /// `ck.config` function) is wrapped: `head(its message)`, then the traceback taken where it
    /// was raised, in the error value itself, so a `pcall` or a report sees the script's frames,
    /// not only those where the error reached the caller. Ctrl-C's `[interrupted]` stays bare.
    /// `check-layout` refuses a `ScriptFailure` made from a message anywhere else.
    public static func wrapping(_ error: Error, _ head: (String) -> String) -> Error {
        if isInterrupt(error) { return error }
        switch error {
        case let e as ScriptFailure:
            let traceback = e.traceback.isEmpty ? "" : "\n" + Tracebacks.first(e.traceback)
            return ScriptFailure(message: head(e.message) + traceback)
        case let e as RuntimeError:
            return ScriptFailure(message: head(e.description))
        default:
            return ScriptFailure(message: head("\(error)"))
        }
    }

    /// `[yieldAcrossRuntime]` as the yield raised it, at the `file:line` of the `coroutine.yield`
    /// (nil: not known), before anyone said whose code it was.
    public static func yieldAcrossRuntime(at location: String?) -> RuntimeError {
        RuntimeError(.yieldAcrossRuntime, yieldDetail, at: location)
    }

    static let yieldDetail = "a coroutine yielded inside a render, handler or callback the runtime called; yield outside runtime calls, or use ck.after for delayed work"

    /// A yield across the runtime told whose code yielded, by the innermost call that knows (the
    /// render, handler or callback that ran it), once; it keeps the yield's line (atk-stale 09:
    /// it named the line of the tap or update, and no component).
    public static func namingYield(_ error: Error, in place: @autoclosure () -> String) -> Error {
        guard let e = error as? RuntimeError, e.id == .yieldAcrossRuntime, e.detail == yieldDetail else { return error }
        return RuntimeError(.yieldAcrossRuntime, "a coroutine yielded inside \(place()), which the runtime called; yield outside runtime calls, or use ck.after for delayed work", at: e.location)
    }

    /// Errors that keep their own id first: a nested build's failure, a yield across the
    /// runtime, and Ctrl-C (or SIGTERM), which stops the user's whole command, not the script
    /// where it struck. A limit the script ran into (`[timeout]`, `[memoryLimit]`,
    /// `[stackLimit]`) is the script's error like any other: wrapped with the place it struck
    /// (`[buildFailed]`, `[callbackFailed]`, …), its own line naming file:line (SPEC §3, §9).
    public static func passesThrough(_ error: Error) -> Bool {
        switch error {
        case is BuildFailure: return true
        case let e as RuntimeError: return e.id == .yieldAcrossRuntime || e.id == .interrupted
        default: return isInterrupt(error)
        }
    }

    /// Ctrl-C (or SIGTERM) stopped the script: the user's own act, reported bare, never as the
    /// failure of the handler, render, timer or callback it struck in (cli.md). Every wrapper
    /// asks this: `attributing`, `passesThrough`, `HandlerFailure.line`, a timer's `fire`.
    public static func isInterrupt(_ error: Error) -> Bool {
        switch error {
        case let e as RuntimeError: return e.id == .interrupted
        case let e as ScriptFailure: return isInterrupt(message: e.message)
        default: return false
        }
    }

    /// Whether an error's message is Ctrl-C's: `[interrupted]`, or lua.c's `interrupted!` that a
    /// script run as `lua5.4` runs it gets (`ckrun app.lua`, `-e`), located or not (a script's own
    /// `error("interrupted!")` reads the same and is not wrapped either).
    public static func isInterrupt(message: String) -> Bool {
        if message.hasPrefix("[\(Catalogue.interrupted.rawValue)]") { return true }
        guard message.hasSuffix("interrupted!"), !message.contains("\n") else { return false }
        return message == "interrupted!" || message.hasSuffix(": interrupted!")
    }
}
