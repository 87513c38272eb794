import CKCore
import CLua
import CLuaShims
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun [options] [script [args]]`: what lua.c does with its command line, on a state that
/// also has the `ck` module, plus the app rule (a script that is an app is hosted, then takes
/// REPL input). Returns the exit status; the state is closed first, as lua.c closes it.
/// `session(engine, appFile, isApp)` is the command line's REPL (or app session).
public final class LuaMain {
    let args: LuaArguments
    let engine: Engine
    let session: (Engine, _ appFile: String?, _ isApp: Bool) -> Void
    var L: OpaquePointer { engine.lua.L }
    /// lua.c's progname: argv[0], in front of every error it reports (none in the REPL).
    private var progname: UnsafeMutablePointer<CChar>?

    public init(_ args: LuaArguments, session: @escaping (Engine, _ appFile: String?, _ isApp: Bool) -> Void) {
        self.args = args
        self.session = session
        if args.version { ckluamain_print_version() }
        progname = args.argv[0].pointee == 0 ? nil : args.argv[0]
        var configuration = Engine.Configuration(
            sandbox: args.sandbox, timeoutSeconds: args.timeout,
            memoryLimitMegabytes: args.memoryLimit)
        configuration.keepsPristineLibrary = args.replMayFollow
        engine = Engine(configuration: configuration)
    }

    /// The script's standard input read by ckrun's own stream from the start, through `lend`
    /// (`StandardInput.own`): under a full-screen view, which lends the terminal to it later.
    public func ownStandardInput(lend: StandardInput.Lender?) { StandardInput.own(in: engine, lend: lend) }

    /// Told each warning written to standard error from the start (`Engine.warningWritten`): the
    /// first build's too, under a full-screen view that folds repeated warnings.
    public func noteWarnings(_ written: @escaping (String) -> Void) { engine.warningWritten = written }

    /// lua.c's order: version, -E, `arg`, the generational collector, LUA_INIT, -e/-l/-W in
    /// order, the script, then -i (or, with nothing to run, the REPL or standard input).
    public func run() -> Int32 {
        let ok = runAll()
        fflush(ckmacros_stdout())
        engine.close()
        return ok ? 0 : 1
    }

    private func runAll() -> Bool {
        if args.ignoreEnvironment { ignoreEnvironment() }
        makeArgTable()
        engine.useGenerationalCollector()
        if !args.ignoreEnvironment, !runLuaInit() { return false }
        for action in args.actions {
            switch action {
            case .execute(let code):
                guard report(dochunk(loadChunk(code, name: "=(command line)"))) else { return false }
            case .library(let spec):
                guard require(spec) else { return false }
            case .warningsOn:
                lua_warning(L, "@on", 0)
            }
        }
        let argc = args.argv.count
        if args.script < argc {
            let name = args.argv[args.script]
            let stdin = strcmp(name, "-") == 0 && strcmp(args.argv[args.script - 1], "--") != 0
            return runScript(path: stdin ? nil : name, pushingArguments: true)
        }
        if args.interactive {
            return runInteractive()
        } else if !args.execute && !args.version {
            if isatty(0) == 1 {
                session(engine, nil, false)
            } else {
                // lua.c's `dofile(L, NULL)` here ignores its status: a script read from standard
                // input without `-` that fails still exits 0 (`-` exits 1), and so does ckrun.
                _ = runScript(path: nil, pushingArguments: false)
            }
        }
        return true
    }

    /// The script (nil: standard input) with `...` from `arg[1...]`; then, if it is an app, the
    /// app session; else -i's REPL if asked. The chunk and, for an app, its first build and
    /// mount are one turn.
    private func runScript(path: UnsafeMutablePointer<CChar>?, pushingArguments: Bool) -> Bool {
        let base = lua_gettop(L)
        // `require` also finds modules beside the script (SPEC §9).
        if let path {
            let script = BytePath.path(cString: path)
            engine.searcher.install(directories: [(SiblingSearcher.directory(of: script), "beside the script \(script)")])
        }
        let shown = path.map { BytePath.shown(BytePath.path(cString: $0)) } ?? "standard input"
        ForcedExit.noteRunning(" while ckrun ran the script \(shown) (Lua runs a precompiled chunk unverified, as lua5.4 does: "
            + "a corrupted one, or a C module's fault, can crash the process)\n")
        var status = loadScript(UnsafePointer(path))
        if status == LUA_OK {
            let n = pushingArguments ? pushArguments() : 0
            guard n >= 0 else { return false }
            let classes = engine.definedComponentClasses
            var app: Result<Bool, LuaError> = .success(false)
            status = call(arguments: n, results: LUA_MULTRET) {
                if lua_gettop(L) == base { lua_pushnil(L) }
                do throws(LuaError) {
                    app = .success(try engine.app.host(returnedAt: base + 1, classesBefore: classes))
                } catch {
                    app = .failure(error)
                }
            }
            if status == LUA_OK {
                lua_settop(L, base)
                return afterScript(app, path: path)
            }
        }
        return report(status)
    }

    private func afterScript(_ app: Result<Bool, LuaError>, path: UnsafeMutablePointer<CChar>?) -> Bool {
        switch app {
        case .failure(let error):
            writeError(Array(error.description.utf8))
            // The app's first mount failed (a callback raised): the app runs on, as after any
            // turn's error (SPEC §9); a failure before the app was bound ends the run.
            guard engine.appHost != nil else { return false }
            engine.appStartupError = error.description
            session(engine, path.map { BytePath.path(cString: $0) }, true)
            return true
        case .success(false):
            return args.interactive ? runInteractive() : true
        case .success(true):
            session(engine, path.map { BytePath.path(cString: $0) }, true)
            return true
        }
    }

    private func runInteractive() -> Bool {
        if isatty(0) == 1 {
            session(engine, nil, false)
            return true
        }
        return readEvalPrint()
    }

    // MARK: lua.c's pieces

    /// `arg`: the script at 0, what follows it at 1..., everything before it (the interpreter,
    /// the options and their values) at negative indices; the interpreter at 0 with no script.
    private func makeArgTable() {
        let argc = args.argv.count
        let script = args.script == argc ? 0 : args.script
        lua_createtable(L, Int32(argc - script - 1), Int32(script + 1))
        for (i, a) in args.argv.enumerated() {
            lua_pushstring(L, a)
            lua_rawseti(L, -2, lua_Integer(i - script))
        }
        engine.lua.setGlobal("arg", on: L)  // before any script runs: raw is what lua.c's set does
    }

    /// Pushes `arg[1]...arg[#arg]`; -1 (reported) if `arg` is no longer a table.
    private func pushArguments() -> Int32 {
        let found = ckluamain_getglobal(L, "arg")
        guard found == LUA_OK, lua_type(L, -1) == LUA_TTABLE else {
            if found != LUA_OK { report(found) } else { ckmacros_pop(L, 1) }  // the error or the value
            ckmacros_pop(L, 1)
            if found == LUA_OK { writeError(Array("'arg' is not a table".utf8)) }
            return -1
        }
        // lua.c takes `#arg` as an int; a border is not a size (2^40 over 41 entries): the list.
        let length = LuaStack(L).listLength(-1)
        guard length < Int(Int32.max) - 3, case let n = Int32(length), lua_checkstack(L, n + 3) != 0 else {
            lua_settop(L, -3)
            writeError(Array("too many arguments to script".utf8))
            return -1
        }
        for i in 1...max(n, 1) where i <= n { lua_rawgeti(L, -Int32(i), lua_Integer(i)) }
        ckmacros_remove(L, -n - 1)
        return n
    }

    /// `-E`: package.path and package.cpath as if LUA_PATH and friends were unset.
    private func ignoreEnvironment() {
        // -E comes before any script runs: raw accesses are what lua.c's do.
        let stack = LuaStack(L)
        stack.push(true)
        stack.setRegistryField("LUA_NOENV")
        guard ckluamain_default_paths(L) != 0 else { return }
        engine.lua.pushGlobal("package")
        ckmacros_insert(L, -3)
        stack.setField("cpath", of: -3)
        stack.setField("path", of: -2)
        ckmacros_pop(L, 1)
    }

    /// A file lua5.4 reads (nil: standard input) loaded as luaL_loadfilex loads it; the error stays
    /// on the stack. A pipe, FIFO or device (`ckrun <(echo …)`, `… | ckrun /dev/stdin`, `-` on a
    /// pipe) is read as it comes in a turn of its own, so `--timeout` ends a wait for a writer
    /// that never finishes (`ckstream.c`); a regular file loads at once, outside any turn.
    private func loadScript(_ path: UnsafePointer<CChar>?) -> Int32 {
        guard ckstream_is_stream(path) != 0 else { return engine.lua.loadFileKeepingError(path) }
        var status: Int32 = LUA_OK
        _ = try? engine.turn { _ throws(LuaError) in status = ckstream_loadfile(L, path) }
        return status
    }

    /// LUA_INIT_5_4, else LUA_INIT: `@file` runs the file, anything else runs as a chunk.
    private func runLuaInit() -> Bool {
        var name = "=LUA_INIT_5_4"
        var value = getenv("LUA_INIT_5_4")
        if value == nil {
            name = "=LUA_INIT"
            value = getenv("LUA_INIT")
        }
        guard let value else { return true }
        // Text only under --sandbox, as every load (`@file` once loaded bytecode there).
        if value.pointee == CChar(UInt8(ascii: "@")) {
            return report(dochunk(loadScript(UnsafePointer(value + 1))))
        }
        return report(dochunk(loadChunk(value, name: name)))
    }

    /// A command-line chunk (`-e`, LUA_INIT) as its bytes; the error stays on the stack.
    private func loadChunk(_ text: UnsafePointer<CChar>, name: String) -> Int32 {
        engine.lua.loadKeepingError(LuaSource(bytes: UnsafeRawBufferPointer(start: text, count: strlen(text))), name: name)
    }

    /// `-l g=mod` / `-l mod`: `g = require("mod")`.
    private func require(_ spec: UnsafeMutablePointer<CChar>) -> Bool {
        let bytes = Array(UnsafeBufferPointer(start: spec, count: strlen(spec)))
        let equals = bytes.firstIndex(of: CChar(UInt8(ascii: "=")))
        let global = Array(bytes[..<(equals ?? bytes.count)]) + [0]
        let module = equals.map { Array(bytes[($0 + 1)...]) } ?? bytes
        var status: Int32 = LUA_OK
        _ = try? engine.turn { _ throws(LuaError) in
            status = module.withUnsafeBufferPointer { m in
                global.withUnsafeBufferPointer { ckluamain_dolibrary(L, $0.baseAddress, m.baseAddress, m.count) }
            }
        }
        return report(status)
    }

    private func dochunk(_ loadStatus: Int32) -> Int32 {
        loadStatus == LUA_OK ? call(arguments: 0, results: 0) : loadStatus
    }

    /// lua.c's docall as a turn (--timeout, --memory-limit, Ctrl-C); `then` runs in the same
    /// turn after a call that succeeded (printing its results, hosting an app).
    func call(arguments: Int32, results: Int32, then: () -> Void = {}) -> Int32 {
        var status: Int32 = LUA_OK
        engine.forgetInnerTraceback()
        _ = try? engine.turn { _ throws(LuaError) in
            status = ckluamain_docall(L, arguments, results)
            if status == LUA_OK { then() }
        }
        return status
    }

    /// Prints the error on top of the stack (if `status` is one) after the progname and pops it.
    @discardableResult
    private func report(_ status: Int32) -> Bool {
        guard status != LUA_OK else { return true }
        if status == LUA_ERRMEM {
            writeError(Array(engine.lua.popError(status: status).description.utf8))
            return false
        }
        var length = 0
        if let text = ckmacros_tostring(L, -1, &length) {
            writeError(namingHandler(Array(UnsafeRawBufferPointer(start: text, count: length))))
        } else {
            writeError(Array("(error object is a \(String(cString: lua_typename(L, lua_type(L, -1)))) value)".utf8))
        }
        ckmacros_pop(L, 1)
        return false
    }

    /// A handler's error that a send passed on unchanged (SPEC §6.3) gets the `[actionFailed]`
    /// line naming the handler first, and the traceback taken where it was raised (msghandler's,
    /// taken after the send re-raised it, lacks the handler's frames; the same thread's frames
    /// below are in both).
    private func namingHandler(_ text: [UInt8]) -> [UInt8] {
        defer { engine.forgetInnerTraceback() }
        guard let f = engine.runtime.lastHandlerFailure, text.starts(with: f.message.utf8),
              let line = f.line(for: f.message) else { return text }
        guard let inner = engine.lastScriptFailure, inner.message == f.message, !inner.traceback.isEmpty else {
            return Array((line + "\n").utf8) + text
        }
        return Array((line + "\n" + inner.message + "\n" + inner.traceback).utf8)
    }

    /// lua.c's l_message: standard output is not flushed first (what io.write buffered comes at
    /// exit, after the error, as under lua5.4), and the message ends at a NUL, as "%s" ends it.
    func writeError(_ message: [UInt8], withProgname: Bool = true) {
        if withProgname, let progname {
            fputs(progname, ckmacros_stderr())
            fputs(": ", ckmacros_stderr())
        }
        let shown = message.prefix { $0 != 0 }
        shown.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, ckmacros_stderr()) }
        fputs("\n", ckmacros_stderr())
        fflush(ckmacros_stderr())
    }
}
