/// How an error of script code the core calls on its own (a lifecycle callback) reaches the
/// caller: with a catalogue id and where it was raised (the callback, the component's path),
/// then the script's own message and traceback. One wrapper, so no such call reports bare.
public enum ScriptErrors {
    /// Runs `body`; an error of its script becomes `[id] where raised: message`.
    static func attributed(_ id: Catalogue, _ place: @autoclosure () -> String, _ body: () throws -> Void) throws {
        do { try body() } catch {
            if passesThrough(error) { throw error }
            throw attributing(error, id, place())
        }
    }

    /// `error` as `[id] place raised: message`, keeping its traceback.
    public static func attributing(_ error: Error, _ id: Catalogue, _ place: String) -> Error {
        switch error {
        case let e as ScriptFailure:
            return ScriptFailure(message: id.message("\(place) raised: \(e.message)"), traceback: e.traceback)
        case let e as RuntimeError:
            return ScriptFailure(message: id.message("\(place) raised: \(e.description)"))
        default:
            return ScriptFailure(message: id.message("\(place) raised: \(error)"))
        }
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
        case let e as ScriptFailure: return e.message.hasPrefix("[\(Catalogue.interrupted.rawValue)]")
        default: return false
        }
    }
}
