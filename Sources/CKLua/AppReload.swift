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
        let forgotten = try engine.forgetModules(under: Engine.directory(of: file))
        guard try engine.reloadApp(file: file), let host = engine.appHost else { return nil }
        return Reload(generation: host.generation, modules: engine.loadedModules(among: forgotten))
    }
}

extension Engine {
    /// Runs the app file again. Returns false if no app is running to reload.
    func reloadApp(file: String) throws(LuaError) -> Bool {
        guard let host = appHostObject, !host.isDestroyed else { return false }
        isReloadingApp = true
        // The replaced classes and tree go at once: Lua's collector counts only Lua's bytes, not
        // the Swift objects their handles keep, so between reloads it ran ever more rarely and
        // the handle and arena tables grew to hold the garbage (10,000 reloads: +3 MB Lua).
        defer { isReloadingApp = false; lua.collectGarbage() }
        let stack = LuaStack(lua.L)
        let base = stack.top
        defer { stack.top = base }
        try lua.loadFile(file)
        lastScriptFailure = nil
        do {
            try withLimits { () throws(LuaError) in try lua.call(arguments: 0, results: 1) }
        } catch {
            throw restoringInnerTraceback(error)
        }
        let L = lua.L
        guard stack.isFunction(-1) || objects.object(at: -1, L) is ComponentClass else { return true }
        try protect {
            try host.reload(provider: try hosts.owned(by: host) { try hosts.provider(at: stack.top, L) })
            if !host.isMounted { try host.mount() }
        }
        return true
    }

    /// `ck.run(provider, opts)` while the app reloads: the running host takes the provider,
    /// responders and model; nil when not reloading (ck.run makes a host).
    func reloadRunningApp(providerAt p: Int32, optsAt o: Int32, _ L: OpaquePointer) throws -> Host? {
        guard isReloadingApp, let host = appHostObject, !host.isDestroyed else { return nil }
        try hosts.owned(by: host) {
            let provider = try hosts.provider(at: p, L)
            let (model, responders) = try hosts.options(at: o, L)
            try host.reload(provider: provider, responders: responders, model: model)
        }
        if !host.isMounted { try host.mount() }
        return host
    }
}
