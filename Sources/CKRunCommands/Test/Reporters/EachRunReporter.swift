import CKCore

/// busted's `--repeat N` with a handler that writes a document per run (JSON, TAP): each run is
/// reported by a reporter of its own, started at the run's first result and finished with the
/// run's results, so N runs are N JSON documents, N TAP streams with their own plans.
final class EachRunReporter: TestReporter {
    private let make: () -> TestReporter
    private let filesPerRun: Int
    private var current: TestReporter?
    private var seed: UInt64?
    private var results: [FileResult] = []
    private var files = 0, finishedRuns = 0
    private var started = MonotonicInstant.now()

    init(filesPerRun: Int, make: @escaping () -> TestReporter) {
        self.filesPerRun = filesPerRun
        self.make = make
    }

    func start(seed: UInt64?) { self.seed = seed }

    func report(_ file: FileResult) {
        let reporter = current ?? begin()
        reporter.report(file)
        results.append(file)
        // An error of the run itself (no test file found, a signal) is no file of a run.
        if !file.file.isEmpty { files += 1 }
        if files == filesPerRun { endRun() }
    }

    func finish(_ files: [FileResult], summary: TestSummary, seconds: Double) {
        if current != nil || finishedRuns == 0 { endRun() }
    }

    private func begin() -> TestReporter {
        let reporter = make()
        reporter.start(seed: seed)
        current = reporter
        started = MonotonicInstant.now()
        return reporter
    }

    private func endRun() {
        let reporter = current ?? begin()
        reporter.finish(results, summary: TestSummary(results), seconds: seconds(since: started))
        current = nil
        results = []
        files = 0
        finishedRuns += 1
    }
}
