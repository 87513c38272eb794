import ArgumentParser
import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What `ckrun test` will do, decided from its options (and `.busted`'s, already applied) before
/// any test runs: the settings every file's run gets, the test files, the report. The command
/// is options → plan (this) → run (`TestRun`) → report (`TestReport`).
struct TestPlan {
    var command: TestCommand
    var settings: TestRunSettings
    /// Where the JUnit file goes: `--junit`, else Bazel's `XML_OUTPUT_FILE`.
    var junitPath: String?
    /// The report: `--output` or `.busted`'s, by ckrun's or busted's name; an output handler ckrun
    /// does not know (a module of the project's) is the text report, as busted falls back to its default.
    let format: ReportFormat

    init(_ command: TestCommand) throws {
        self.command = command
        var format = command.output.flatMap(ReportFormat.named) ?? .text
        junitPath = command.junit
        // busted's junit handler writes to its first -Xoutput option, when there is one, and not to stdout.
        if format.names.contains("junit"), let file = TestCommand.tagList(command.busted.outputOptions).first, !file.isEmpty {
            if junitPath == nil { junitPath = file }
            format = .junitToFile
        }
        self.format = format
        settings = Self.settings(command, format: format)
        if !command.worker {
            let junitOption = junitPath == nil ? nil : command.junit != nil ? "--junit" : "-Xoutput"
            try Self.applyBazel(&settings, junit: &junitPath)
            try refuseOverlappingOutputs(junitOption: junitOption ?? "XML_OUTPUT_FILE")
        }
    }

    /// Every output of the run through the one check (`OutputTargets`): a usage error (64).
    private func refuseOverlappingOutputs(junitOption: String) throws {
        var targets: [OutputTargets.Target] = []
        if settings.coverage {
            targets.append(.init(option: "--coverage", path: CoverageReport.statsFile))
            targets.append(.init(option: "--coverage", path: CoverageReport.lcovFile))
        }
        if let junitPath { targets.append(.init(option: junitOption, path: junitPath)) }
        if let refusal = OutputTargets.refusal(targets) { throw ValidationError(refusal) }
    }

    /// The files and how they run.
    func run() throws -> TestRun {
        var settings = settings
        let selection = try discover()
        let files = shardFiles(selection.files, settings: &settings)
        try TestCommand.checkRuns(command.repeatCount, files: files.count)
        var run = TestRun(files: files, settings: settings, jobs: command.jobs, repeats: command.repeatCount)
        run.loadErrors = selection.unreadable
        // busted stops before any test when its helper file cannot be read (its runner.lua).
        if let helper = settings.helper, helper.hasSuffix(".lua"), let problem = ReadableFile.problem(helper, sandboxed: settings.sandbox, what: "the helper") {
            let detail = problem.hasPrefix("[cannotRead] ") ? String(problem.dropFirst("[cannotRead] ".count)) : problem
            run.loadErrors.append(Catalogue.cannotRead.message("failed running the specified helper (\(helper)), error: \(detail)"))
            run = TestRun(files: [], settings: settings, jobs: command.jobs, repeats: 0, loadErrors: run.loadErrors)
        }
        if !selection.listedAny && !command.passWithNoTests { run.loadErrors.append(noTestFilesMessage) }
        return run
    }

    /// busted's error for a run that found no file (its `output.no_test_files_match`): the run
    /// fails with it, as busted's does (exit 1).
    var noTestFilesMessage: String {
        let patterns = command.pattern.isEmpty ? [TestDiscovery.defaultPattern] : command.pattern
        let shown = patterns.count > 1 ? "\n\t" + patterns.joined(separator: "\n\t") : patterns[0]
        return "No test files found matching Lua pattern: " + shown
    }

    private static func settings(_ command: TestCommand, format: ReportFormat) -> TestRunSettings {
        let busted = command.busted
        var settings = TestRunSettings(
            filters: command.filters, excludes: command.excludes, tags: TestCommand.tagList(command.tags),
            excludeTags: TestCommand.tagList(command.excludeTags),
            timeout: command.timeout ?? (command.sandbox ? TestCommand.sandboxTimeout : nil),
            shard: command.shard.flatMap(Shard.init(parsing:)), seed: nil,
            failFast: command.failFast || busted.keepGoing == false, sandbox: command.sandbox, memoryLimitMB: command.memoryLimit)
        settings.sharedState = busted.autoInsulate == false
        settings.sort = busted.sortTests ?? command.sort ?? false
        settings.sortFiles = busted.sortFiles ?? command.sort ?? false
        settings.lpath = command.lpath ?? "./src/?.lua;./src/?/?.lua;./src/?/init.lua"
        settings.cpath = command.cpath ?? "./csrc/?.so;./csrc/?/?.so"
        settings.helper = command.helper
        settings.helperArguments = busted.helperArguments
        // Read once (a worker reads it again): each file's state runs these bytes.
        if let path = command.replayedConfig,
           case .bytes(let bytes) = RegularFile.read(path, limit: ReadableFile.sandboxedLimit, what: "the configuration") {
            settings.config = (path, ByteText.text(bytes), command.replayedConfigName ?? path)
        }
        settings.commandLine = command.runnerArguments.isEmpty ? BustedConfig.commandLine : command.runnerArguments
        settings.statements = busted.statements
        settings.lang = busted.lang
        settings.lazy = busted.lazy ?? false
        settings.updateSnapshots = command.updateSnapshots
        settings.coverage = command.coverage ?? false
        settings.recordLoads = command.watch
        settings.exposeRunner = command.runnerInternals
        settings.elementNames = format.needsElementNames
        // busted: --shuffle is --shuffle-files and --shuffle-tests; --seed only seeds them and
        // randomize() (busted.randomseed), shuffling nothing by itself.
        settings.shuffleFiles = busted.shuffleFiles ?? command.shuffle ?? false
        settings.shuffleTests = busted.shuffleTests ?? command.shuffle ?? false
        let given = command.seed.flatMap(TestCommand.luaInteger).map { UInt64(bitPattern: $0) }
        settings.seed = given ?? (settings.isShuffled ? UInt64.random(in: 1...UInt64(UInt32.max)) : nil)
        settings.stateSeed = command.stateSeed ?? given ?? UInt64.random(in: 1...UInt64.max)
        return settings
    }

    /// Bazel's test protocol: TEST_TOTAL_SHARDS / TEST_SHARD_INDEX (0-based) pick the shard
    /// when --shard is not given, TEST_SHARD_STATUS_FILE is touched to say sharding is
    /// understood, XML_OUTPUT_FILE receives the JUnit report when --junit is not given.
    static func applyBazel(_ settings: inout TestRunSettings, junit: inout String?) throws {
        let names = ["TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE"]
        var environment: [String: String] = [:]
        for name in names { environment[name] = Environment.value(name) }
        if settings.shard == nil, let shard = try bazelShard(environment) { settings.shard = shard }
        if let status = environment["TEST_SHARD_STATUS_FILE"], !status.isEmpty { touch(status) }
        if junit == nil, let xml = environment["XML_OUTPUT_FILE"], !xml.isEmpty { junit = xml }
    }

    /// As touch(1): a missing file is made empty; an existing one (or a link's target) keeps its
    /// bytes and gets a new time. It was replaced by an empty file, wiping what a mistyped
    /// variable named.
    /// Its missing directories are made, as the JUnit file's are; one it cannot touch is said
    /// (Bazel would take it that ckrun does not shard, and fail the test with no word why).
    static func touch(_ path: String) {
        let made = BytePath.makeParentDirectories(of: path)
        let fd = BytePath.open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let why = made ?? SystemError.text(errno)
            let message = "cannot touch TEST_SHARD_STATUS_FILE \(BytePath.shown(path)): \(why); Bazel takes a missing status file to mean the shards were not understood: name a file in a directory ckrun can make or write"
            return StandardStreams.err("ckrun test: " + Catalogue.cannotWrite.message(message) + "\n")
        }
        _ = futimens(fd, nil)
        close(fd)
    }

    /// The shard Bazel's variables name, nil when neither is set. An index outside the shards
    /// is a usage error, as a bad --shard is: running every test instead would hide the mistake.
    static func bazelShard(_ environment: [String: String]) throws -> Shard? {
        let total = environment["TEST_TOTAL_SHARDS"].flatMap { $0.isEmpty ? nil : $0 }
        let index = environment["TEST_SHARD_INDEX"].flatMap { $0.isEmpty ? nil : $0 }
        if total == nil && index == nil { return nil }
        guard let count = total.flatMap({ Int($0) }), let zeroBased = index.flatMap({ Int($0) }),
              count >= 1, zeroBased >= 0, zeroBased < count else {
            throw ValidationError(
                "TEST_SHARD_INDEX must be a number from 0 to TEST_TOTAL_SHARDS - 1, and TEST_TOTAL_SHARDS a positive number "
                    + "(Bazel's sharding; got TEST_SHARD_INDEX=\(index ?? "(unset)"), TEST_TOTAL_SHARDS=\(total ?? "(unset)"))")
        }
        return Shard(index: zeroBased + 1, count: count)
    }

    /// `--shard-timings`: the shard's share of whole files (`ShardTimings`), every test of which
    /// then runs. Without a shard there is nothing to balance, which a note says.
    private func shardFiles(_ files: [String], settings: inout TestRunSettings) -> [String] {
        guard let shardTimings = command.shardTimings else { return files }
        guard let shard = settings.shard else {
            StandardStreams.err("ckrun test: note: --shard-timings does nothing without --shard I/N (or Bazel's TEST_TOTAL_SHARDS): every test runs\n")
            return files
        }
        let report = ShardTimings.read(shardTimings)
        if let note = report.note { StandardStreams.err("ckrun test: note: \(note)\n") }
        settings.shard = nil
        let share = ShardTimings.files(files, shard: shard, times: report.seconds)
        if share.isEmpty, !files.isEmpty, !command.passWithNoTests {
            StandardStreams.err("ckrun test: note: shard \(shard.index)/\(shard.count) got none of the \(files.count) test files (--shard-timings gives shards whole files): nothing to run\n")
        }
        return share
    }

    /// Test files: the paths given, else the .busted ROOT, else `spec` (busted's only default: a
    /// missing `spec` is its "Cannot find file or directory" error, and the run fails); busted's
    /// `--pattern` rules (TestDiscovery) under each.
    func discover() throws -> TestDiscovery.Selection {
        try TestDiscovery.files(in: roots, patterns: command.pattern, excluding: command.excludePattern,
                                recursive: command.busted.recursive ?? true,
                                timeLimit: command.timeout ?? (command.sandbox ? TestCommand.sandboxTimeout : nil))
    }

    /// The paths searched.
    var roots: [String] { command.paths.isEmpty ? ["spec"] : command.paths }
}
