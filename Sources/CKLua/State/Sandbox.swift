import CKCore
import CLua
import CLuaShims

/// `--sandbox`: removes what runs programs, loads C code or writes files.
enum Sandbox {
    static func apply(to lua: LuaState) {
        // The id first, then the position the script adds, as every ckrun error.
        let message = "[\(Catalogue.sandbox.rawValue)] %s%s is not allowed under --sandbox; run without --sandbox or leave the call out"
        do {
            try lua.load(String(decoding: PackageResources.sandbox_lua, as: UTF8.self), name: "=(sandbox)")
            lua.push(message)
            try lua.call(arguments: 1, results: 0)
        } catch {
            fatalError("ckrun: the sandbox failed to install: \(error)")
        }
    }
}
