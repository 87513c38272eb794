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

/// The report of a run: the chosen format's reporter (`ReportFormat`) and `--junit`'s file
/// receive each file's results in the run's order, then the closing `N passed, N failed` line,
/// coverage's files and a note when nothing ran.
struct TestReport {
    let plan: TestPlan

    private var command: TestCommand { plan.command }

    /// Runs and reports, with the run's exit status (`finish`). `endings`:
    /// a signal or the watchdog's last resort still closes the reports (`RunEnding`; --watch
    /// handles its signals itself).
    func run(_ run: TestRun, endings: Bool = true) -> (results: [FileResult], status: Int32) {
        if let output = command.output, ReportFormat.named(output) == nil {
            StandardStreams.err("ckrun test: note: no output handler '\(output)' here (\(ReportFormat.nameList)): the text report follows\n")
        }
        if plan.format.ownsStandardOutput { StandardStreams.reserveForReport() }
        let fileWriter = plan.junitPath.map { JUnitFileWriter(path: $0, fallsBackToStandardOutput: plan.format.isJUnitToFile) }
        let format = plan.format, options = ReportOptions(verbose: command.busted.verbose ?? false)
        let main = run.repeats > 1 && format.documentPerRun && !run.files.isEmpty
            ? EachRunReporter(filesPerRun: run.files.count) { format.make(options) } : format.make(options)
        let reporters = [main] + (fileWriter.map { [$0] } ?? [])
        // Every result reaches every reporter, the summary and the coverage through this one feed.
        let feed = ReportFeed(reporters, seed: run.settings.shuffleSeed)
        let loadErrors = run.loadErrorResult.map { [$0] } ?? []
        // The end of the run: the reporters close, the summary and the coverage are written.
        let close = { () -> Int32 in
            finish(feed.finish(), fileWriter: fileWriter, run: run, loadFailed: !loadErrors.isEmpty)
        }
        let ending = endings ? RunEnding { unreported, last in
            (unreported + [last]).map(shown).forEach(feed.feed)
            _ = close()
        } : nil
        let report = { (result: FileResult) in
            let shown = shown(result)
            guard let ending else { return feed.feed(shown) }
            ending.report(shown, feed.feed)
        }
        loadErrors.forEach(report)
        _ = run.execute(report)
        let status = ending.map { $0.closing { close() } } ?? close()
        return (feed.fed, status)
    }

    /// Prints the summary of what the reporters were fed and closed with, writes the coverage;
    /// the run's exit status: 1 when a test failed or a report could not be written, 0 else
    /// (SPEC §9), but the status of the first `os.exit` a test file called (in the run's order)
    /// when that status is not 0, as busted ends with it (not under `--sandbox`). An `os.exit(0)`
    /// does not choose: the test that called it failed, so the run ends 1.
    private func finish(_ reported: ReportedRun, fileWriter: JUnitFileWriter?, run: TestRun, loadFailed: Bool) -> Int32 {
        let summary = reported.summary
        // Machine formats own standard output entirely: the summary goes to standard error.
        if plan.format.ownsStandardOutput { StandardStreams.err(summary.line + "\n") } else { StandardStreams.out(summary.line + "\n") }
        var reportFailed = false
        if run.settings.coverage, !writeCoverage(reported.files) { reportFailed = true }
        if let fileWriter, let problem = fileWriter.failure {
            StandardStreams.err("ckrun test: \(problem)\n")
            fileWriter.printUnwritten()
            reportFailed = true
        }
        // Nothing ran, so nothing failed: exit 0, as busted does (SPEC §9), with a word on why.
        if summary.total == 0 && !command.passWithNoTests && !loadFailed, let note = noTestsMessage(run) {
            StandardStreams.err("ckrun test: \(note)\n")
        }
        // Under --sandbox the checkout does not choose the status.
        if !run.settings.sandbox, let exited = reported.files.lazy.compactMap(\.exitStatus).first(where: { $0 != 0 }) {
            return exited
        }
        return summary.failed > 0 || reportFailed ? 1 : 0
    }

    /// busted's --suppress-pending leaves pending tests out of every report and count.
    private func shown(_ result: FileResult) -> FileResult {
        guard command.busted.suppressPending == true else { return result }
        var result = result
        result.tests.removeAll { $0.status == .skipped }
        return result
    }

    private func writeCoverage(_ results: [FileResult]) -> Bool {
        do {
            let (earlier, damaged) = CoverageReport.previous()
            if let damaged { StandardStreams.err("ckrun test: \(damaged)\n") }
            let inside = command.sandbox ? BytePath.currentDirectory() : nil
            let files = try CoverageReport.write(CoverageReport.adding(CoverageReport.merge(results), to: earlier), inside: inside)
            StandardStreams.err(CoverageReport.summaryTable(files))
            StandardStreams.err("ckrun test: coverage written to luacov.stats.out and lcov.info\n")
            return true
        } catch {
            StandardStreams.err("ckrun test: " + Catalogue.cannotWrite.message("cannot write the coverage reports (luacov.stats.out and lcov.info, in the working directory): \(error.reason); their names are fixed: clear the way there, or run from a directory ckrun can write, then run again") + "\n")
            return false
        }
    }

    /// Why nothing ran; nil when --shard-timings left this shard no file (it said so then).
    func noTestsMessage(_ run: TestRun) -> String? {
        if run.files.isEmpty && command.shardTimings != nil && run.settings.shard == nil { return nil }
        let where_ = plan.roots.joined(separator: " ")
        let patterns = command.pattern.isEmpty ? "_spec, or ending _test.lua" : command.pattern.joined(separator: " or ")
        let detail = run.files.isEmpty
            ? "no test files in \(where_) (test files are .lua files whose names match \(patterns); see --pattern)"
            : "no tests matched in \(run.files.count == 1 ? "1 file" : "\(run.files.count) files") (check --filter, --exclude, --tags, --exclude-tags and --shard)"
        return "note: " + detail + "; nothing failed, so the run succeeds (--pass-with-no-tests leaves this note out)"
    }

    /// `--watch`: the first pass runs `run`, later ones the files the watcher picks.
    func watch(_ run: TestRun) throws -> Never {
        let recursive = command.busted.recursive ?? true
        var outputs = run.settings.coverage ? ["luacov.stats.out", "lcov.info"] : []
        if let junit = plan.junitPath { outputs.append(junit) }
        let discover = { [plan] () -> [String] in
            var present = plan
            present.command.paths = plan.roots.filter { BytePath.exists($0) }
            return (try? present.discover().files) ?? []
        }
        let watcher = try TestWatcher(roots: plan.roots, recursive: recursive, outputs: outputs, discover: discover)
        watcher.loop { pass in
            guard let files = pass.files else { return self.run(run, endings: false).results }
            var settings = run.settings
            if let filters = pass.filters { settings.filters = filters }
            settings.updateSnapshots = settings.updateSnapshots || pass.updateSnapshots
            // Each file keeps its place among all the test files: --shard and the shuffle key on it.
            let places = Dictionary(watcher.discovered.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
            return self.run(TestRun(files: files, settings: settings, jobs: command.jobs, places: places), endings: false).results
        }
    }
}

/// `--list`: `file:line: full name` of each selected test (busted's: the name alone for one the
/// file's main chunk registered), without running it.
struct TestListing {
    let plan: TestPlan

    func list(_ run: TestRun) throws {
        var count = 0
        // The run's own errors (no test file found, an unreadable directory) fail a listing too.
        for error in run.loadErrors { StandardStreams.err("ckrun test: \(error)\n") }
        var loadFailed = !run.loadErrors.isEmpty
        for file in run.order {
            let result = SpecFileRunner(file: file.path, fileIndex: file.index, settings: run.settings, listOnly: true).run()
            // busted's filter leaves a declared pending test out of the list under --suppress-pending.
            let suppressPending = plan.command.busted.suppressPending == true
            for test in result.tests where !(suppressPending && test.status == .skipped) {
                if test.status == .errored {
                    StandardStreams.err("ckrun test: \(test.message ?? file.path)\n")
                    loadFailed = true
                } else {
                    // busted's: the name alone for a test the file's main chunk registered (line 0).
                    let place = test.line > 0 ? "\(test.placeFile):\(test.line): " : ""
                    StandardStreams.out(LineBreaks.escaped(place + test.name) + "\n")
                    count += 1
                }
            }
        }
        if count == 0 && !plan.command.passWithNoTests && !loadFailed, let note = TestReport(plan: plan).noTestsMessage(run) {
            StandardStreams.err("ckrun test: \(note)\n")
        }
        if loadFailed { throw ExitCode(1) }
    }
}
