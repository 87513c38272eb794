import CKCore
import CLua
import CLuaShims

/// What the app runner needs: start the app a script returned, and run the loop until idle.
extension Engine {
    /// The host of the running app (`ck.run`, or the provider a script returned).
    public var appHost: Host? { appHostObject }

    /// Runs an app script. If it is an app by the app rule (`hostApp(returnedAt:classesBefore:)`),
    /// hosts and mounts it and binds `app`. Returns whether an app is running.
    public func runApp(_ code: String, name: String, arguments: [String] = []) throws(LuaError) -> Bool {
        let base = lua.top
        let classes = componentClassesDefined
        let n = try runChunk(code, name: name, arguments: arguments, results: 1)
        defer { lua.top = base }
        guard n > 0 else { return appHostObject != nil }
        return try hostApp(returnedAt: -1, classesBefore: classes)
    }

    /// `ck.runUntilIdle()` from Swift: builds updates and fires timers until none are left.
    public func runUntilIdle() throws(LuaError) {
        try protect { _ = try runtime.runUntilIdle() }
    }

    /// Runs core work from Swift, turning its errors into `LuaError`s for the command line.
    func protect(_ body: () throws -> Void) throws(LuaError) {
        do {
            try body()
        } catch let e as RuntimeError {
            throw LuaError(message: e.description)
        } catch let e as ScriptFailure {
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
    public func defineGlobalFunction(_ name: String, _ body: @escaping LuaState.HostFunction) {
        lua.pushHostFunction(lua.register(body))
        lua.setGlobal(name)
    }
}

extension HostCall {
    public func push(_ number: Double) { lua_pushnumber(L, number) }
}

extension Engine {
    /// Bytes malloc has handed out in this process: Lua's and Swift's allocations together.
    public static var heapBytes: Int { Int(ck_heap_bytes()) }
}

extension Engine {
    /// Forgets an interrupt that arrived after the chunk it was meant for had finished.
    public func clearInterrupt() { ck_clear_interrupt(lua.L) }
}

extension LuaState {
    /// Pops the top value into the registry under `key` (for tools that keep Lua values).
    public func storeInRegistry(_ key: String) {
        lua_setfield(L, ck_registryindex(), key)
    }

    /// Pushes `registry[key]`.
    public func pushFromRegistry(_ key: String) {
        lua_getfield(L, ck_registryindex(), key)
    }

    /// Pushes field `name` of the table on top (raw).
    public func pushField(_ name: String) {
        push(name)
        lua_rawget(L, -2)
    }

    public func pushNil() { lua_pushnil(L) }
    public func isNil(at index: Int32) -> Bool { lua_type(L, index) <= LUA_TNIL }
    public func isFunction(at index: Int32) -> Bool { lua_type(L, index) == LUA_TFUNCTION }
    public func pushValue(at index: Int32) { lua_pushvalue(L, index) }
    public func remove(at index: Int32) { ck_remove(L, index) }
    public func insert(at index: Int32) { ck_insert(L, index) }
    /// The strings of the array on top of the stack (raw).
    public func strings(ofTableAt index: Int32) -> [String] {
        var out: [String] = []
        let n = lua_rawlen(L, index)
        for i in 0..<n {
            lua_rawgeti(L, index, lua_Integer(i + 1))
            if let s = string(at: -1) { out.append(s) }
            ck_pop(L, 1)
        }
        return out
    }
}
