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
