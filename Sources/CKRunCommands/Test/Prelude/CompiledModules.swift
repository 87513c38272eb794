import CKLua
import CLua
import CLuaShims

/// luassert's modules compiled once per process: the first test file's state records them
/// as bytecode (`string.dump`, debug information kept), later states load that bytecode into
/// `package.preload` instead of compiling the sources again (2.5 of the 3.9 ms luassert takes
/// to load). Bytecode made here by this process's own Lua is all that is ever loaded this way.
enum CompiledModules {
    struct Module {
        var name: String
        var bytes: [UInt8]
    }

    /// Set once, by the first state that loaded luassert (the runner is single-threaded per process).
    nonisolated(unsafe) static var modules: [Module]?

    /// The preludes' own chunks, compiled once per process too (by chunk name).
    nonisolated(unsafe) static var preludes: [String: [UInt8]] = [:]

    /// Loads a prelude chunk onto the stack: from its bytecode when this process compiled it before.
    static func load(_ source: String, name: String, in lua: LuaState) throws(LuaError) {
        let L = lua.L
        if let bytes = preludes[name] {
            let status = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { ck_loadbuffer(L, $0.baseAddress, $0.count, name, "b") }
            }
            if status == LUA_OK { return }
            lua.pop()
        }
        try lua.load(source, name: name)
        // string.dump of the chunk just loaded (absent under a sandbox that removes it: no cache).
        do {
            try lua.load(#"local dump = string.dump; return dump and dump((...))"#, name: "=(ckrun test: dump)")
            lua.pushValue(at: -2)
            try lua.call(arguments: 1, results: 1)
            var length = 0
            if lua_type(L, -1) == LUA_TSTRING, let bytes = ck_tostring(L, -1, &length) {
                preludes[name] = Array(UnsafeBufferPointer(start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length))
            }
            lua.pop()
        } catch {}
    }

    static func preload(in lua: LuaState) throws(LuaError) {
        guard let modules, !modules.isEmpty else { return }
        let L = lua.L
        for module in modules {
            try lua.load(#"local name, f = ...; package.preload[name] = f"#, name: "=(ckrun test: preload)")
            lua.push(module.name)
            let status = module.bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { ck_loadbuffer(L, $0.baseAddress, $0.count, module.name, "b") }
            }
            if status != LUA_OK { lua.pop(3); return }
            try lua.call(arguments: 2, results: 0)
        }
        try lua.load(#"local T = _ENV["(ckrun test)"]; T.preloaded = {...}"#, name: "=(ckrun test: preload)")
        for module in modules { lua.push(module.name) }
        try lua.call(arguments: Int32(modules.count), results: 0)
    }

    static func harvest(from lua: LuaState) {
        guard modules == nil else { return }
        let L = lua.L
        var found: [Module] = []
        var index = 1
        while true {
            let top = lua.top
            defer { lua.top = top }
            do {
                try lua.load(#"local d = _ENV["(ckrun test)"].dumps; d = d and d[tonumber((...))]; if d then return d.name, d.bytes end"#,
                             name: "=(ckrun test: harvest)")
                lua.push(String(index))
                try lua.call(arguments: 1, results: 2)
            } catch {
                break
            }
            guard let name = lua.string(at: -2), lua_type(L, -1) == LUA_TSTRING else { break }
            var length = 0
            guard let bytes = ck_tostring(L, -1, &length) else { break }
            found.append(Module(name: name, bytes: Array(UnsafeBufferPointer(
                start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length))))
            index += 1
        }
        modules = found
    }
}
