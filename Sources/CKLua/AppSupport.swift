import CKCore

/// What the app runner needs: start the app a script returned, and run the loop until idle.
extension Engine {
    /// The host of the running app (`ck.run`, or the provider a script returned).
    public var appHost: Host? { appHostObject }

    /// Runs an app script. If it is an app by the app rule (`hostApp(returnedAt:classesBefore:)`),
    /// hosts and mounts it and binds `app`. Returns whether an app is running.
    public func runApp(_ source: LuaSource, name: String, arguments: [String] = []) throws(LuaError) -> Bool {
        // The chunk, the provider, the first build and the mount share one deadline.
        try withLimits { () throws(LuaError) in try startApp(source, name: name, arguments: arguments) }
    }

    private func startApp(_ source: LuaSource, name: String, arguments: [String]) throws(LuaError) -> Bool {
        let base = lua.top
        let classes = componentClassesDefined
        let n = try runChunk(source, name: name, arguments: arguments, results: 1)
        defer { lua.top = base }
        guard n > 0 else { return appHostObject != nil }
        return try hostApp(returnedAt: -1, classesBefore: classes)
    }

    /// `ck.flush()` from Swift: builds every host's pending updates, under the script's time limit.
    public func flushHosts() throws(LuaError) {
        try withLimits { () throws(LuaError) in try protect { try runtime.flush() } }
    }

    /// `ck.runUntilIdle()` from Swift: builds updates and fires timers until none are left,
    /// under the script's time limit.
    public func runUntilIdle() throws(LuaError) {
        try withLimits { () throws(LuaError) in try protect { _ = try runtime.runUntilIdle() } }
    }

    /// Runs core work from Swift, turning its errors into `LuaError`s for the command line.
    func protect(_ body: () throws -> Void) throws(LuaError) {
        do {
            try body()
        } catch let e as RuntimeError {
            throw LuaError(message: e.description)
        } catch let e as ScriptFailure {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch let e as BuildFailure {
            throw LuaError(message: e.message, traceback: e.traceback)
        } catch let e as LuaError {
            throw e
        } catch {
            throw LuaError(message: "\(error)")
        }
    }
}

extension Engine {
    /// A one-line rendering of a core value (for dumps and exports).
    public func describeValue(_ value: Value) -> String { describe(value) }
}

extension Engine {
    /// Defines a global Lua function backed by Swift (for tools such as `ckrun bench`).
    public func defineGlobalFunction(_ name: String, _ body: @escaping LuaState.SwiftFunction) {
        lua.pushSwiftFunction(lua.register(body))
        lua.setGlobal(name)
    }
}

extension Engine {
    /// Bytes malloc has handed out in this process: Lua's and Swift's allocations together.
    public static var heapBytes: Int { LuaState.heapBytes }
}

extension Engine {
    /// Forgets an interrupt that arrived after the chunk it was meant for had finished.
    public func clearInterrupt() { lua.clearInterrupt() }
}
