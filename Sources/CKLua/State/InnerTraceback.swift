import CKCore

extension Engine {
    /// A handler's (or render's) error reaches the caller through the runtime, which re-raises
    /// only its message: the traceback the caller's handler then takes starts at the runtime
    /// call and drops the handler's own frames. The traceback taken where the error happened
    /// has them (and, on the same thread, every frame below), so the command line prints that.
    public func restoringInnerTraceback(_ e: LuaError) -> LuaError {
        defer { lastScriptFailure = nil }
        guard let f = lastScriptFailure, !f.traceback.isEmpty, e.message == f.message else { return e }
        return LuaError(message: e.message, traceback: f.traceback, status: e.status)
    }

    /// Forgets the last re-raised error (before a chunk runs).
    public func forgetInnerTraceback() { lastScriptFailure = nil }
}
