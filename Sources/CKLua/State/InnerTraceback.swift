import CKCore

extension Engine {
    /// A handler's (or render's) error reaches the caller through the runtime, which re-raises
    /// only its message: the traceback the caller's handler then takes starts at the runtime
    /// call and drops the handler's own frames. The traceback taken where the error happened
    /// has them (and, on the same thread, every frame below), so the command line prints that.
    /// A handler's error that a send passed on unchanged (SPEC §6.3) gets the `[actionFailed]`
    /// line naming the handler first.
    public func restoringInnerTraceback(_ e: LuaError) -> LuaError {
        defer { forgetInnerTraceback() }
        let named = runtime.lastHandlerFailure?.line(for: e.message).map { $0 + "\n" + e.message } ?? e.message
        guard let f = lastScriptFailure, !f.traceback.isEmpty, e.message == f.message else {
            return LuaError(message: named, traceback: e.traceback, status: e.status).keepingFirstTraceback()
        }
        return LuaError(message: named, traceback: f.traceback, status: e.status).keepingFirstTraceback()
    }

    /// Forgets the last re-raised error and the handler it came from (before a chunk runs).
    public func forgetInnerTraceback() {
        lastScriptFailure = nil
        runtime.clearHandlerFailure()
    }
}

extension LuaError {
    /// A `[buildFailed]` raised into Lua carries the render's traceback; the one taken where it
    /// reached the caller then follows, repeating frames the first has (same thread). Keeps the
    /// first.
    public func keepingFirstTraceback() -> LuaError {
        LuaError(message: message, traceback: Tracebacks.first(traceback), status: status)
    }

    /// Drops the frames from the first one matching `frame` on (the command line's own callers).
    public func cutTraceback(at frame: String) -> LuaError {
        var lines: [Substring] = []
        for line in traceback.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains(frame) { break }
            lines.append(line)
        }
        return LuaError(message: message, traceback: lines.joined(separator: "\n"), status: status)
    }
}
