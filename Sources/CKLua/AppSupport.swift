import CKCore

/// What the app runner needs from the engine besides `engine.app` (AppRunner.swift): the app's
/// host and core errors as `LuaError`s.
extension Engine {
    /// The host of the running app (`ck.run`, or the provider a script returned).
    public var appHost: Host? { appHostObject }

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

extension Turn {
    /// Runs a file as lua loads it (its bytes as they are) and, if it is an app by the app rule,
    /// hosts and mounts it and binds `app`: the chunk, the provider, the first build and the mount
    /// are this one turn. Returns whether an app is running.
    public func runAppFile(_ path: String) throws(LuaError) -> Bool { try engine.app.runFile(path) }
    /// Why the file `runAppFile` last ran is not an app by the app rule (nil if it is one).
    public var whyNotAnApp: String? { engine.appHostObject == nil ? engine.notAnAppBecause : nil }
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
