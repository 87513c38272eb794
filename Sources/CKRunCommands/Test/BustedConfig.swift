import ArgumentParser
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

/// busted's `.busted` file in the working directory: a Lua file returning tasks of options
/// (`default`, `_all`, or the one `--run` names). Options given on the command line win. It is
/// the checkout's code: it runs in a state of its own under the run's `--timeout` and
/// `--memory-limit`, with `--sandbox`'s rules when given, and Ctrl-C stops it.
enum BustedConfig {
    /// The limits `.busted` runs under: the command line's.
    struct Limits {
        var sandbox = false
        var timeout: Double?
        var memoryLimitMB: Int?
    }

    /// busted's `arg` while `.busted` runs: the program, then the arguments after `test`.
    static let commandLine: [String] = {
        let all = CommandLine.arguments
        let rest = all.firstIndex(of: "test").map { Array(all[($0 + 1)...]) } ?? []
        return [all.first ?? "ckrun"] + rest
    }()

    /// `path` is busted's `-f/--config-file`: it must exist; `.busted` may be missing.
    static func load(task: String?, path: String? = nil, limits: Limits = Limits()) throws -> [String: [String]] {
        let path = path ?? ".busted"
        guard BytePath.exists(path) else {
            if path != ".busted" { throw ValidationError("--config-file: no such file: \(BytePath.shown(path))") }
            // busted reads --run only from a .busted file: without one, the option does nothing.
            return [:]
        }
        // The checkout's word: a FIFO there blocked the run before any limit, /proc read secrets.
        if let problem = RegularFile.problem(path, limit: ReadableFile.sandboxedLimit, what: "the configuration") {
            throw ValidationError(".busted: \(problem)")
        }
        let engine = Engine(configuration: .init(sandbox: limits.sandbox, timeoutSeconds: limits.timeout,
                                                 memoryLimitMegabytes: limits.memoryLimitMB))
        defer { engine.close() }
        do {
            let reader = try engine.tools.load(EmbeddedLua.bustedConfig, name: "=(ckrun test: .busted)")
            let problem = try engine.withLimits { () throws(LuaError) in
                try engine.tools.call(reader, [engine.tools.string(bytes: ByteText.bytes(of: path)), task.map(Value.string) ?? .nil,
                                           engine.testing.recordFunction, engine.hostPristineLibrary, .bool(limits.sandbox)]
                                      + commandLine.map(Value.string))
            }.first.flatMap(engine.tools.text)
            if let problem { throw ValidationError(".busted: \(problem)") }
        } catch let error as LuaError {
            throw ValidationError(".busted: \(error.message)")
        }
        var values: [String: [String]] = [:]
        for fields in ResultRecords.fields(engine.testing.testRecords) {
            guard fields.count >= 2, let key = fields[0], let type = fields[1] else { continue }
            values[key] = try BustedConfigForm.normalize(key: key, type: type, values: fields.dropFirst(2).map { $0 ?? "" })
        }
        return values
    }
}

extension TestCommand {
    /// Takes the `.busted` task's options the command line left unset.
    mutating func apply(_ config: [String: [String]]) throws {
        func list(_ key: String) -> [String] { config[key] ?? [] }
        func single(_ key: String) -> String? { config[key]?.first }
        func flag(_ key: String) -> Bool? { single(key).map { $0 == "true" } }
        if paths.isEmpty { paths = list("ROOT") }
        if pattern.isEmpty { pattern = list("pattern") }
        if excludePattern.isEmpty { excludePattern = list("exclude-pattern") }
        if filters.isEmpty { filters = list("filter") }
        if excludes.isEmpty { excludes = list("filter-out") }
        if tags.isEmpty { tags = list("tags") }
        if excludeTags.isEmpty { excludeTags = list("exclude-tags") }
        lpath = lpath ?? single("lpath")
        cpath = cpath ?? single("cpath")
        helper = helper ?? single("helper")
        if output == nil { output = single("output") }
        // --[no-]shuffle and --[no-]sort on the command line also stand for their -files and
        // -tests halves, as busted's processShuffle/processSort set both: .busted's halves yield.
        // .busted's `shuffle` and `sort` do nothing in busted 2.1.1 (its runner reads the -files/-tests keys).
        let orderGiven = (shuffle: shuffle != nil, sort: sort != nil)
        if !self.list { self.list = flag("list") ?? false }
        if !sandbox { coverage = coverage ?? flag("coverage") }   // under --sandbox it would make ckrun write
        if !failFast { failFast = flag("no-keep-going") ?? false }
        if seed == nil, let value = single("seed") { seed = value }
        try applyNumbers(timeout: single("timeout"), repeat: single("repeat"))
        // Under --sandbox a checkout's .busted does not choose where ckrun writes: an untrusted
        // `Xoutput = "~/.bashrc"` had a JUnit report replace any file the user may write.
        if sandbox, busted.outputOptions.isEmpty, config["Xoutput"] != nil {
            throw ValidationError(".busted sets Xoutput, a file ckrun would write; under --sandbox the checkout's .busted does not choose where ckrun writes: give -Xoutput FILE on the command line")
        }
        // A ROOT path that does not exist is not refused here: as in busted, and as for a path on
        // the command line, it is an error of the run (TestDiscovery) and the other paths run.
        try busted.apply(config, flag: flag, shuffleGiven: orderGiven.shuffle, sortGiven: orderGiven.sort)
    }

    /// `.busted`'s `timeout` and `repeat`, which the command line left unset.
    private mutating func applyNumbers(timeout configTimeout: String?, repeat configRepeat: String?) throws {
        if timeout == nil, let value = configTimeout {
            guard let seconds = Double(value), seconds > 0 else { throw ValidationError(".busted timeout takes a positive number of seconds (got \(value))") }
            // Under --sandbox only lowers the limit (`timeout = 1e9` let a test spin until CI killed it).
            timeout = sandbox ? min(seconds, TestCommand.sandboxTimeout) : seconds
        }
        // busted's `for i = 1, runs`: 2.0 and "2" run twice, 2.5 twice too.
        if repeatCount == 1, let value = configRepeat, let runs = Double(value) {
            guard runs.isFinite else { throw ValidationError(".busted repeat takes a number of runs (got \(value))") }
            repeatCount = Int(min(max(runs.rounded(.down), 0), Double(Int32.max)))
        }
    }
}

extension BustedOptions {
    /// busted's own keys of a `.busted` task (the command line wins).
    mutating func apply(_ config: [String: [String]], flag: (String) -> Bool?, shuffleGiven: Bool, sortGiven: Bool) throws {
        if statements.isEmpty { statements = config["e"] ?? [] }
        if helperOptions.isEmpty { helperOptions = config["Xhelper"] ?? [] }
        if outputOptions.isEmpty { outputOptions = config["Xoutput"] ?? [] }
        lang = lang ?? config["lang"]?.first
        verbose = verbose ?? flag("verbose")
        lazy = lazy ?? flag("lazy")
        keepGoing = keepGoing ?? flag("keep-going")
        recursive = recursive ?? flag("recursive")
        if !shuffleGiven {
            shuffleFiles = shuffleFiles ?? flag("shuffle-files")
            shuffleTests = shuffleTests ?? flag("shuffle-tests")
        }
        if !sortGiven {
            sortFiles = sortFiles ?? flag("sort-files")
            sortTests = sortTests ?? flag("sort-tests")
        }
        suppressPending = suppressPending ?? flag("suppress-pending")
        autoInsulate = autoInsulate ?? flag("auto-insulate")
    }
}
