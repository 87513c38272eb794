import CKCore
import CLua
import CLuaShims

/// The standard library as it was before any script ran, for ckrun's own embedded Lua: a
/// script may rebind `type`, `load` or `table` as its own globals (or delete them), and the
/// host's Lua must go on working, as `lua -i` does (issue: REPL bricked by `type = "primary"`).
enum PristineLibrary {
    static let registryKey = CKPRISTINE_KEY

    /// Takes the copy (after `--sandbox` has shaped the globals, before any script runs): the
    /// global table's entries, each standard library table copied one level (so a script's
    /// `table.concat = nil` does not reach it either); `_G` in it stays the live global table.
    /// Out of memory this early leaves no copy; the REPL then reads the live globals.
    static func take(in lua: LuaState) {
        let stack = LuaStack(lua.L)
        let base = stack.top
        _ = ckpristine_take(lua.L)
        stack.top = base
    }
}

extension Engine {
    /// The globals as they were before any script ran (standard library tables copied), for the
    /// host's own embedded Lua to use as its `_ENV`: `local _ENV = pristine` at a chunk's top
    /// makes every free name it reads one the script cannot have rebound. `_G` in it is the live
    /// global table.
    public var hostPristineLibrary: Value { registryTable(PristineLibrary.registryKey) }
}
