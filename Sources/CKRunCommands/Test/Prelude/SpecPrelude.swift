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
    static func install(in engine: Engine) throws(LuaError) {
        for chunk in chunks {
            try engine.call(try engine.load(chunk.source, name: "=(ckrun test: \(chunk.name))"), [.string(exitMessage)])
        }
    }
}
