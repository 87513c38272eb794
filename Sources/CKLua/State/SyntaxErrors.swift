import CKCore
import CLua

extension LuaError {
    /// A chunk the user wrote that does not compile, as ckrun reports it itself (a reload, a
    /// typed line): `[syntaxError]`, Lua's message (its chunk:line), then `consequence` (what
    /// became of the run) and what to do. Any other error is returned as it is.
    public func asSyntaxError(_ consequence: String) -> LuaError {
        guard status == LUA_ERRSYNTAX, id == nil else { return self }
        return LuaError(message: Catalogue.syntaxError.message("\(message); \(consequence)"), status: status)
    }
}
