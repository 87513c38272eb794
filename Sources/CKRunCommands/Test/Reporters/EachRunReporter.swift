import CKCore

/// busted's `--repeat N` with a handler that writes a document per run (JSON, TAP): each run is
/// reported by a reporter of its own, fed through a feed of its own (`ReportFeed`) from the
/// run's first result and finished with what it was fed, so N runs are N JSON documents, N TAP
/// streams with their own plans.
final class EachRunReporter: TestReporter {
    private let make: () -> TestReporter
    private let filesPerRun: Int
    private var current: ReportFeed?
    private var seed: UInt64?
    private var files = 0, finishedRuns = 0

    init(filesPerRun: Int, make: @escaping () -> TestReporter) {
        self.filesPerRun = filesPerRun
        self.make = make
    }

    func start(seed: UInt64?) { self.seed = seed }

    func report(_ file: FileResult) {
        let feed = current ?? begin()
        feed.feed(file)
        // An error of the run itself (no test file found, a signal) is no file of a run.
        if !file.isOfTheRun { files += 1 }
        if files == filesPerRun { endRun() }
    }

    func finish(_ run: ReportedRun) {
        if current != nil || finishedRuns == 0 { endRun() }
    }

    private func begin() -> ReportFeed {
        let feed = ReportFeed([make()], seed: seed)
        current = feed
        return feed
    }

    private func endRun() {
        (current ?? begin()).finish()
        current = nil
        files = 0
        finishedRuns += 1
    }
}
