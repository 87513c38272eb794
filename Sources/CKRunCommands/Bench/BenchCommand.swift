import CKCore
import ArgumentParser
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun bench`: runtime costs, each as a ratio to plain Lua work measured in the same process.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the runtime against plain Lua (median of repeated runs)."
    )

    @Option(help: "Repetitions per figure; the median is reported.")
    var repeats = 5

    @Flag(help: "Smaller sizes, for a quick look.")
    var quick = false

    @Option(help: "Run only the figures whose name contains this (\"keyed\": js-framework-benchmark's keyed ops alone).")
    var only: String?

    @Option(help: ArgumentHelp("Roact v1.4.2's src/ directory: runs the keyed ops on a Roact app too, in this process, and prints the ratios (default: $CKRUN_ROACT).", valueName: "path"))
    var roact: String?

    @Option(help: ArgumentHelp("Runs one keyed op once on one side (\"create 1,000 rows@ckrun\"), its timed part inside lua_resume, for callgrind --toggle-collect=lua_resume.", valueName: "op@side"))
    var keyedCount: String?

    @Option(help: .hidden)
    var embeddedSend: String?

    /// --sandbox, --timeout and --memory-limit, as every command that runs Lua takes them: each
    /// chunk the bench runs (its figures, the keyed ops with a --roact app's files) is one turn.
    @OptionGroup var runtime: RuntimeOptions

    func validate() throws {
        if let embeddedSend, EmbeddedSendBench.parse(embeddedSend) == nil {
            throw ValidationError("--embedded-send takes N@send, N@action or N@call; got \(embeddedSend)")
        }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1 (the median of no runs is undefined); got \(repeats)") }
    }

    /// keyed.lua's refusal of a --keyed-count it has no op for starts so (a usage error).
    private static let usageMark = "--keyed-count takes "

    func run() throws {
        if let spec = embeddedSend.flatMap(EmbeddedSendBench.parse) { return try EmbeddedSendBench.run(count: spec.count, mode: spec.mode) }
        let engine = Engine(configuration: .init(
            sandbox: runtime.sandbox, timeoutSeconds: runtime.timeout, memoryLimitMegabytes: runtime.memoryLimit))
        BenchSupport.install(in: engine)
        let startup = quick || only == "keyed" || keyedCount != nil ? nil : measureStartup()
        do {
            if only != "keyed" && keyedCount == nil {
                try Self.run(EmbeddedLua.bench, name: "=bench", in: engine,
                             [String(repeats), quick ? "quick" : "full", only ?? "",
                              startup.map { String($0.ckrun) } ?? "", startup?.lua.map { String($0) } ?? ""])
            }
            if only == nil || only == "keyed" || keyedCount != nil { try runKeyed(engine) }
        } catch {
            // keyed.lua's check of --keyed-count: a usage error (`ckrun: [usage] …`, status 64).
            if error.message.hasPrefix(Self.usageMark) { throw ValidationError(error.message) }
            ProcessOutput.err("ckrun bench: \(error.description)\n")
            throw ExitCode(1)
        }
    }

    /// js-framework-benchmark's keyed ops (keyed.lua), beside Roact's when its source is given.
    private func runKeyed(_ engine: Engine) throws(LuaError) {
        let path = roact ?? Environment.value("CKRUN_ROACT") ?? ""
        try Self.run(EmbeddedLua.benchRoact, name: "=roact", in: engine, [])
        try Self.run(EmbeddedLua.benchKeyed, name: "=keyed", in: engine,
                     [String(max(repeats, 7)), quick ? "quick" : "", path, keyedCount ?? ""])
    }

    /// Runs one of the bench's chunks with `arguments`, then the standard library as it was at
    /// start (its `_ENV`).
    private static func run(_ source: LuaSource, name: String, in engine: Engine, _ arguments: [String]) throws(LuaError) {
        try engine.turn { _ throws(LuaError) in
            let chunk = try engine.tools.load(source, name: name)
            _ = try engine.tools.call(chunk, arguments.map { engine.tools.string(bytes: ByteText.bytes(of: $0)) } + [engine.hostPristineLibrary])
        }
    }

    /// Median wall time of `ckrun -e ''` and of `lua5.4 -e ''` (if installed), in milliseconds.
    private func measureStartup() -> (ckrun: Double, lua: Double?)? {
        let me = BytePath.realPath("/proc/self/exe") ?? "/proc/self/exe"
        guard let ckrun = medianSpawn(me) else { return nil }
        let lua = ["/usr/bin/lua5.4", "/usr/local/bin/lua5.4"].first { BytePath.access($0, X_OK) }
        return (ckrun, lua.flatMap(medianSpawn))
    }

    /// posix_spawn and waitpid: Foundation's Process adds tens of milliseconds of its own.
    private func medianSpawn(_ path: String) -> Double? {
        var times: [Double] = []
        for _ in 0..<max(11, repeats) {
            var pid: pid_t = 0
            let args: [UnsafeMutablePointer<CChar>?] = [strdup(path), strdup("-e"), strdup(""), nil]
            defer { args.forEach { free($0) } }
            let start = MonotonicInstant.now().uptimeNanoseconds
            guard posix_spawn(&pid, path, nil, nil, args, environ) == 0 else { return nil }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            times.append(Double(MonotonicInstant.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }
}
