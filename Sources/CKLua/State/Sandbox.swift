import CKCore
import CLua
import CLuaShims

/// `--sandbox`: removes what runs programs, loads C code or bytecode, writes files, reads the
/// environment or ends the process; keeps the debug library's safe part (docs/sandbox.md).
enum Sandbox {
    static let debugKey = "ckrun.debug"

    static func apply(to lua: LuaState) {
        // The id first, then the position the script adds, as every ckrun error.
        let message = "[\(Catalogue.sandbox.rawValue)] %s%s is not allowed under --sandbox; %s"
        // The whole debug library stays in the registry for the host's own Lua (hostDebugLibrary).
        lua.pushGlobal("debug")
        LuaStack(lua.L).setRegistryField(debugKey)
        do {
            try lua.load(LuaSource(bytes: PackageResources.sandbox_lua), name: "=(sandbox)")
            lua.push(message)
            lua_pushcclosure(lua.L, cksandbox_readable, 0)
            lua_pushcclosure(lua.L, cksandbox_forwarding, 0)
            try lua.call(arguments: 3, results: 0)
            lua.loadsTextOnly = true
        } catch {
            fatalError(ProgramName.prefixed("the sandbox failed to install: \(error)"))
        }
    }
}

extension Engine {
    /// The whole debug library, for the host's own trusted Lua (the test runner's preludes keep
    /// it in locals): under `--sandbox` scripts see only traceback and getinfo. Never hand it,
    /// or a function that takes a function and uses it, to a script.
    public var hostDebugLibrary: Value { registryTable(Sandbox.debugKey, else: "debug") }

    /// The table the host keeps in the registry under `key` (for its own Lua); when there is none,
    /// the global `global` (nil: nil).
    func registryTable(_ key: String, else global: String? = nil) -> Value {
        let L = lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        if stack.registryField(key) != .table {
            stack.top = base
            if let global { lua.pushGlobal(global) } else { stack.pushNil() }
        }
        return values.value(at: -1, L)
    }
}
