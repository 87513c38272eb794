import CKCore
import CKLua

/// busted's spec language, written in Lua (`Prelude/*.lua`): chunks run in order in each test file's fresh state.
enum SpecPrelude {
    static let chunks = EmbeddedLua.specPreludes

    /// Raised by the guarded `os.exit`: `string.format(message, "file:line", code)`.
    static let exitMessage = Catalogue.testFailure.message(
        "os.exit(%s) was called; ckrun test does not let a test end the process: raise an error or fail an assertion instead",
        at: "%s")

    /// The preludes and luassert's modules, compiled once per process (see `CompiledChunks`).
    nonisolated(unsafe) static let compiled = CompiledChunks()
    /// Modules are recorded only while the preludes install, never from a test's code.
    nonisolated(unsafe) private static var installing = false

    /// Chunk names start with "(ckrun test", which tracebacks and error locations skip. Each
    /// chunk gets the `os.exit` message, the recorder of luassert's modules (luassert.lua), the
    /// whole debug library (under --sandbox the test's code sees only part of it), the C
    /// stack lookups `user_frame` and `errorlevel` (ckframes.c), `runner`, the table the
    /// chunks share (no global names it: a test cannot reach the runner through it), and the
    /// standard library as it was at start (each chunk's `_ENV`).
    static func install(in engine: Engine, runner: Value) throws(LuaError) {
        installing = true
        defer { installing = false }
        let recorder = engine.tools.function { [unowned engine] arguments throws(LuaError) in
            if installing, case .string(let name) = arguments.first, arguments.count > 1 {
                compiled.record(arguments[1], as: name, in: engine)
            }
            return []
        }
        let debug = engine.hostDebugLibrary, pristine = engine.hostPristineLibrary
        for chunk in chunks {
            if chunk.name == "luassert" { try preload(in: engine, runner: runner) }
            let function = try compiled.load(chunk.source, name: chunkName(chunk.name), in: engine)
            try engine.tools.call(function, [.string(exitMessage), compiled.recorded.isEmpty ? recorder : .nil, debug,
                                       engine.testing.userFrameFunction, engine.testing.errorLevelFunction, runner, pristine])
        }
    }

    /// The preludes after the first (luassert.lua, which needs nothing from them) compiled on a
    /// thread of their own while this one loads luassert (`CompiledChunks.compileAhead`).
    static func compileAhead() {
        compiled.compileAhead(chunks.dropFirst().map { (chunkName($0.name), $0.source) })
    }

    private static func chunkName(_ name: String) -> String { "=(ckrun test: \(name))" }

    /// luassert's modules this process recorded, as `package.preload` entries (`T.preloaded`
    /// names them; luassert.lua removes them once it has required luassert).
    private static func preload(in engine: Engine, runner: Value) throws(LuaError) {
        var pairs: [Value] = []
        for name in compiled.recorded {
            guard let function = compiled.function(name, in: engine) else { return }
            pairs += [.string(name), function]
        }
        guard !pairs.isEmpty else { return }
        let install = try compiled.load(#"""
            local T, n = ..., select("#", ...)
            T.preloaded = {}
            for i = 2, n, 2 do
              local name, f = select(i, ...)
              package.preload[name] = f
              T.preloaded[#T.preloaded + 1] = name
            end
            """#, name: "=(ckrun test: preload)", in: engine)
        try engine.tools.call(install, [runner] + pairs)
    }
}
