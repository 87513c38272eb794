import CKCore

/// `.reload` and `ckrun app.lua --watch`: the app file runs again and the running app's one
/// host takes its new provider, keeping scopes (state and controllers) by identity, whichever
/// form the app has (a returned provider or class, or `ck.run`).
extension Turn {
    /// What a reload did: the generation it built and the modules it loaded again.
    public struct Reload {
        public let generation: Int
        /// Modules from the app's directory tree that the reloaded file required again, sorted.
        public let modules: [String]
    }

    /// Forgets every module loaded from the app file's directory tree (whichever searcher found
    /// it), then runs the file again (its bytes, as lua loads them). Nil if no app is running.
    public func reloadApp(file: String) throws(LuaError) -> Reload? {
        let forgotten = try engine.searcher.forgetModules(under: SiblingSearcher.directory(of: file))
        guard try engine.app.reload(file: file), let host = engine.appHost else { return nil }
        return Reload(generation: host.generation, modules: engine.searcher.loadedModules(among: forgotten))
    }
}

/// How a reload that failed before it reached the host says so.
enum ReloadFailure {
    static let keptApp = "the reload was rolled back: the running app keeps its provider, responders, model and state. Fix the line it names, then reload again"

    /// The file's own error at its top level, a `ck` call's too (atk-new 07: `[badArgument]`
    /// from a ck.struct came bare, with no word that the reload was rolled back), under a
    /// `[reloadFailed]` line; Ctrl-C and a limit (`[interrupted]`, `[timeout]`, …) are
    /// returned as they are: they stopped the reload, not the file.
    static func raised(_ error: LuaError, file: String) -> LuaError {
        if let id = error.id, passesBare.contains(id) { return error }
        let head = Catalogue.reloadFailed.message(
            "reloading \(BytePath.shown(file)) raised at its top level, before it gave a provider; \(keptApp)")
        return LuaError(message: head + "\n" + error.message, traceback: error.traceback, status: error.status)
    }

    private static let passesBare: Set<String> = Set([Catalogue.interrupted, .timeout, .memoryLimit, .stackLimit, .reloadFailed].map(\.rawValue))
}
