import CKCore
import CLua
import CLuaShims

/// `--sandbox`: removes what runs programs, loads C code or bytecode, writes files, reads the
/// environment or ends the process; keeps the debug library's safe part (docs/sandbox.md).
enum Sandbox {
    static func apply(to lua: LuaState) {
        // The id first, then the position the script adds, as every ckrun error.
        let message = "[\(Catalogue.sandbox.rawValue)] %s%s is not allowed under --sandbox; %s"
        do {
            try lua.load(String(decoding: PackageResources.sandbox_lua, as: UTF8.self), name: "=(sandbox)")
            lua.push(message)
            try lua.call(arguments: 1, results: 0)
            lua.loadsTextOnly = true
        } catch {
            fatalError("ckrun: the sandbox failed to install: \(error)")
        }
    }

    /// A load error under `--sandbox` that is Lua's "binary chunk" refusal, as a `[sandbox]` error.
    static func refusingBytecode(_ error: LuaError, name: String, textOnly: Bool) -> LuaError {
        guard textOnly, error.message.contains("attempt to load a binary chunk") else { return error }
        let file = name.hasPrefix("@") || name.hasPrefix("=") ? String(name.dropFirst()) : name
        return LuaError(message: Catalogue.sandbox.message(
            "\(file): loading a binary (precompiled) chunk is not allowed under --sandbox; load Lua source text"), status: error.status)
    }
}
