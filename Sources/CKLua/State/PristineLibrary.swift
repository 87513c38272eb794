import CKCore
import CLua
import CLuaShims

/// The standard library as it was before any script ran, for ckrun's own embedded Lua: a
/// script may rebind `type`, `load` or `table` as its own globals (or delete them), and the
/// host's Lua must go on working, as `lua -i` does (issue: REPL bricked by `type = "primary"`).
enum PristineLibrary {
    static let registryKey = "ckrun.pristine"

    /// A copy of the global table's entries, each standard library table copied one level (so a
    /// script's `table.concat = nil` does not reach it either). `_G` stays the live global table.
    private static var snapshot: LuaSource { """
        local next, type = next, type
        local libraries = {string = true, table = true, math = true, io = true, os = true,
                           utf8 = true, coroutine = true, debug = true}
        local pristine = {}
        for name, value in next, _G do
          if libraries[name] and type(value) == "table" then
            local copy = {}
            for k, v in next, value do copy[k] = v end
            value = copy
          end
          pristine[name] = value
        end
        return pristine
        """ }

    /// Takes the snapshot (after `--sandbox` has shaped the globals, before any script runs).
    static func take(in lua: LuaState) {
        do {
            try lua.load(snapshot, name: "=(pristine)")
            try lua.call(arguments: 0, results: 1)
            LuaStack(lua.L).setRegistryField(registryKey)
        } catch {
            fatalError("ckrun: the standard library snapshot failed: \(error)")
        }
    }
}

extension Engine {
    /// The globals as they were before any script ran (standard library tables copied), for the
    /// host's own embedded Lua to use as its `_ENV`: `local _ENV = pristine` at a chunk's top
    /// makes every free name it reads one the script cannot have rebound. `_G` in it is the live
    /// global table.
    public var hostPristineLibrary: Value {
        let L = lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        _ = stack.registryField(PristineLibrary.registryKey)
        return values.value(at: -1, L)
    }
}
