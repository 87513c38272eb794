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
    /// chunks share (no global names it: a test cannot reach the runner through it), the
    /// standard library as it was at start (each chunk's `_ENV`), and the lookup of luassert's
    /// modules compiled ahead (`CompiledChunks.module`: recorded as the recorder records).
    /// The first state takes what `compileAhead` compiled and ends its thread.
    static func install(in engine: Engine, runner: Value) throws(LuaError) {
        installing = true
        defer { installing = false; stopAhead() }
        let first = compiled.recorded.isEmpty
        let recorder = engine.tools.function { [unowned engine] arguments throws(LuaError) in
            if installing, case .string(let name) = arguments.first, arguments.count > 1 {
                compiled.record(arguments[1], as: name, in: engine)
            }
            return []
        }
        let precompiled = engine.tools.function { [unowned engine] arguments throws(LuaError) in
            guard installing, arguments.count == 2, case .string(let name) = arguments[0], case .string(let path) = arguments[1],
                  let function = compiled.module(name, path: Array(path.utf8), in: engine) else { return [] }
            return [function]
        }
        let debug = engine.hostDebugLibrary, pristine = engine.hostPristineLibrary
        for chunk in chunks {
            if chunk.name == "luassert" { try preload(in: engine, runner: runner) }
            let function = try compiled.load(chunk.source, name: chunkName(chunk.name), in: engine)
            try engine.tools.call(function, [.string(exitMessage), first ? recorder : .nil, debug,
                                       engine.testing.userFrameFunction, engine.testing.errorLevelFunction, runner, pristine,
                                       first ? precompiled : .nil])
        }
    }

    /// luassert's modules (Debian's lua-luassert 1.9), in the order luassert.lua's requires
    /// load them: compiled ahead from the files `require` will find for them. One that is not
    /// listed, or found elsewhere, is compiled where it is required.
    static let luassertModules = [
        "luassert", "luassert.assert", "say", "luassert.state", "luassert.util", "luassert.namespaces",
        "luassert.assertions", "luassert.modifiers", "luassert.array", "luassert.matchers",
        "luassert.matchers.core", "luassert.matchers.composite", "luassert.match", "luassert.formatters",
        "term", "term.colors", "term.cursor", "luassert.languages.en", "luassert.spy", "luassert.stub", "luassert.mock",
    ]

    nonisolated(unsafe) private static var startedAhead = false
    nonisolated(unsafe) private static var ahead: PreludesAhead?

    /// Compiles luassert.lua, luassert's modules and the other preludes on a thread of their
    /// own (`PreludesAhead`) while this one goes on to the first state, which takes them (the
    /// last preludes first: the first state, reaching them, compiles those the thread has not
    /// begun). Once per process; the first state's `install` ends the thread.
    static func compileAhead() {
        guard !startedAhead else { return }
        startedAhead = true
        let preludes = chunks.map { PreludesAhead.Piece.chunk(name: chunkName($0.name), source: $0.source) }
        let pieces = [preludes[0]] + luassertModules.map(PreludesAhead.Piece.module) + preludes.dropFirst().reversed()
        ahead = PreludesAhead(pieces)
        if let ahead { compiled.compileAhead(ahead) }
    }

    /// Everything `compileAhead` compiles, compiled on this thread too (from the other end) and
    /// kept, the thread ended: for `--jobs`, whose workers, forked next, each load it.
    static func compileAll() {
        compileAhead()
        ahead?.help()
        ahead = nil
        compiled.finishAhead()
    }

    /// Ends `compileAhead`'s thread if no state took its work (the process is about to end).
    static func stopAhead() {
        ahead = nil
        compiled.finishAhead()
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
