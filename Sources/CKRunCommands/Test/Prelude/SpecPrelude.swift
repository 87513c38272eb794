import CKCore
import CKLua

/// busted's spec language, written in Lua (`Prelude/*.lua`): chunks run in order in each test file's fresh state.
enum SpecPrelude {
    static let chunks = EmbeddedLua.specPreludes

    /// Raised by the guarded `os.exit`: `string.format(message, "file:line", code)`.
    static let exitMessage = Catalogue.testFailure.message(
        "os.exit(%s) was called; ckrun test does not let a test end the process: raise an error or fail an assertion instead",
        at: "%s")

    /// Chunk names start with "(ckrun test", which tracebacks and error locations skip.
    static func install(in lua: LuaState) throws(LuaError) {
        for chunk in chunks {
            if chunk.name == "assert" { try CompiledModules.preload(in: lua) }
            try CompiledModules.load(chunk.source, name: "=(ckrun test: \(chunk.name))", in: lua)
            lua.push(exitMessage)
            try lua.call(arguments: 1, results: 0)
        }
        CompiledModules.harvest(from: lua)
    }
}
