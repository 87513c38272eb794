import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One test file's fresh Lua state with the spec language installed (Prelude/*.lua). The
/// whole file runs in one call into Lua (`T.run_file`); each piece of user code in it (the
/// file's body, a block's body, a hook, a test) gets its own time limit through `T.deadline`.
final class SpecSession {
    let engine: Engine
    /// The table the preludes share (`T`): held here and handed to each chunk, never a global.
    let runner: Value
    /// The time limit of each piece of the runner's own work the Swift side calls (nil: none).
    private let timeout: Double?
    /// The last file run did not compile (`run` threw Lua's message for it).
    private(set) var fileDidNotCompile = false
    /// The directories `require` already searches beside the files this state ran.
    private var searched: Set<[String]> = []

    init(settings: TestRunSettings) throws(LuaError) {
        engine = Engine(configuration: .init(
            sandbox: settings.sandbox, timeoutSeconds: nil, memoryLimitBytes: settings.memoryLimitBytes, pooledMemory: true))
        // lua5.4's lua.c (so busted, and `ckrun script.lua`) runs everything under the generational collector.
        engine.useGenerationalCollector()
        engine.limitClosing(to: settings.timeout)
        timeout = settings.timeout
        runner = engine.tools.table([("class_methods", engine.testing.classMethodsFunction),
                                     ("handler_line", engine.testing.handlerLineFunction)]
                                    + SnapshotFiles(sandbox: settings.sandbox).fields(engine))
        try SpecPrelude.install(in: engine, runner: runner)
        // Without --memory-limit it is the system's refusal (ulimit -v, a container): no limit to raise.
        let memory = Catalogue.memoryLimit.message(settings.memoryLimitMB.map {
            "the test used more than its memory limit (\($0) MB); raise --memory-limit or use less memory"
        } ?? "the process ran out of memory (the system refused it: ulimit -v, a container's or the machine's limit); use less memory")
        let limits = try SpecPrelude.compiled.load(#"""
            local T = ...
            T.turn, T.keep, T.memory_message, T.clock = select(2, ...)
            select(6, ...)(coroutine)
            T.check_deadline = select(7, ...)
            if select(8, ...) then T.exposed = true; rawset(_G, "(ckrun test)", T) end
            T.begin_isolated, T.end_isolated, T.note_exit, T.block_timers, T.memory_place = select(9, ...)
            """#, name: "=(ckrun test: limits)", in: engine)
        try engine.tools.call(limits, [runner, engine.testing.runnerTurnFunction, engine.testing.recordFunction, .string(memory),
                                 engine.testing.monotonicClockFunction, engine.testing.hookCoroutinesFunction, engine.testing.checkDeadlineFunction,
                                 .bool(settings.exposeRunner), engine.testing.beginTestFunction, engine.testing.endTestFunction,
                                 engine.testing.noteExitFunction, engine.testing.blockTimersFunction, engine.testing.memoryPlaceFunction])
    }

    /// Calls `T[name](arguments...)` with string arguments, under the time limit; returns its
    /// result if it is a string. Arguments reach Lua as the bytes they carry (`ByteText`: a
    /// `--filter`, `-e` or `-Xhelper` that is not UTF-8 is the bytes typed).
    @discardableResult
    func call(_ name: String, _ arguments: String...) throws(LuaError) -> String? {
        let function = engine.tools.field(name, of: runner)
        return try engine.withDeadline(timeout) { () throws(LuaError) in
            try engine.tools.call(function, arguments.map { engine.tools.string(bytes: ByteText.bytes(of: $0)) }).first.flatMap(engine.tools.carriedText)
        }
    }

    /// Loads the test file from its bytes and runs it; its results are then `records`. A file
    /// that does not compile, or a runner that stopped, throws (the results kept so far stay).
    /// `index` is the file's place among the run's files, `seed` its `math.random` seed.
    func run(path: String, index: Int, seed: Int64) throws(LuaError) {
        engine.testing.clearTestRecords()
        // `require` finds modules beside the test file and in the project root (SPEC §9); a
        // shared state gets one searcher per directory.
        let directory = SiblingSearcher.directory(of: path), root = BytePath.currentDirectory()
        if searched.insert([directory, root]).inserted {
            engine.searcher.install(directories: [
                (directory, "beside the test file \(path)"),
                (root, "in the project root: the directory ckrun test runs in"),
            ])
        }
        let runFile = engine.tools.field("run_file", of: runner)
        fileDidNotCompile = true
        let chunk = try engine.tools.loadFile(path)
        fileDidNotCompile = false
        let arguments: [Value] = [chunk, engine.tools.string(bytes: ByteText.bytes(of: path)), .string(String(index)), .string(String(seed))]
        // Each piece of code the file runs gets its own limit (T.turn); Ctrl-C stops it.
        try engine.withDeadline(timeout) { () throws(LuaError) in _ = try engine.tools.call(runFile, arguments) }
    }

    /// The results the file's tests left, as `ResultRecords` (kept outside the Lua heap).
    var records: [UInt8] { engine.testing.testRecords }

    /// The whole records so far, read on another thread while the file runs (a run's ending).
    var wholeRecordsReader: () -> [UInt8] { engine.testing.wholeTestRecordsReader }
}

/// Tracebacks without the runner's own frames.
enum Traceback {
    static func clean(_ traceback: String) -> String {
        let noise = ["(ckrun test", "[C]: in ?", "[C]: in function 'error'", "(...tail calls...)", "[C]: in function 'xpcall'"]
        let lines = traceback.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !noise.contains { line.contains($0) }
        }
        return lines.count <= 1 ? "" : lines.joined(separator: "\n")
    }
}
