import CKCore
import CLua
import CLuaShims

public enum LuaVersion {
    public static let string = "Lua 5.4"
}

/// The Lua-facing engine: one Lua state, the core runtime, and the `ck` module binding them.
public final class Engine {
    public struct Configuration: Sendable {
        public var sandbox: Bool
        public var timeoutSeconds: Double?
        public var memoryLimitBytes: Int

        public init(sandbox: Bool = false, timeoutSeconds: Double? = nil, memoryLimitBytes: Int = 0) {
            self.sandbox = sandbox
            self.timeoutSeconds = timeoutSeconds
            self.memoryLimitBytes = memoryLimitBytes
        }
    }

    public let lua: LuaState
    public let configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        lua = LuaState(memoryLimitBytes: configuration.memoryLimitBytes)
        lua.owner = self
        ModuleBinding.open(in: self)
        if configuration.sandbox { Sandbox.apply(to: lua) }
    }

    /// Sets the global `arg` the way `lua` does: the script at 0, the interpreter below it.
    public func setArguments(script: String, arguments: [String], interpreter: String) {
        let L = lua.L
        lua_createtable(L, Int32(arguments.count), 2)
        lua.push(interpreter)
        lua_rawseti(L, -2, -1)
        lua.push(script)
        lua_rawseti(L, -2, 0)
        for (i, a) in arguments.enumerated() {
            lua.push(a)
            lua_rawseti(L, -2, lua_Integer(i + 1))
        }
        lua.setGlobal("arg")
    }

    /// Runs a chunk with `...` bound to `arguments`, under the configured time limit.
    public func runChunk(_ code: String, name: String, arguments: [String] = []) throws(LuaError) {
        try lua.load(code, name: name)
        for a in arguments { lua.push(a) }
        try withLimits { () throws(LuaError) in try lua.call(arguments: Int32(arguments.count), results: 0) }
    }

    /// Runs `body` under the configured deadline, if any.
    public func withLimits<T>(_ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        try withDeadline(configuration.timeoutSeconds, body)
    }

    /// Runs `body` with Lua code stopped by `[timeout]` after `seconds` (nil: no limit).
    public func withDeadline<T>(_ seconds: Double?, _ body: () throws(LuaError) -> T) throws(LuaError) -> T {
        guard let seconds else { return try body() }
        ck_set_deadline(lua.L, seconds)
        defer { ck_clear_deadline(lua.L) }
        return try body()
    }
}

extension Engine {
    /// Async-signal-safe: the running chunk stops at its next instruction check with `[interrupted]`.
    public func interrupt() { ck_interrupt(lua.L) }
}
