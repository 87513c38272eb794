import CKCore

/// What a reporter closes with: the results it was fed, in the run's order, their summary and
/// the time since the feed began. Only a `ReportFeed` makes one, of exactly what it fed, so a
/// format that lists the results at the end (JSON, JUnit, the summary line) and one that writes
/// them as they come (TAP, text, gtest) always list the same ones (atk-new2 05: a run ended by
/// SIGTERM handed its running file's finished tests to the first kind alone).
struct ReportedRun {
    let files: [FileResult]
    let summary: TestSummary
    let seconds: Double

    fileprivate init(files: [FileResult], seconds: Double) {
        (self.files, self.seconds) = (files, seconds)
        summary = TestSummary(files)
    }
}

/// The one way results reach reporters: every reporter is fed each result in turn, then
/// finished with the list of what it was fed (`ReportedRun`).
final class ReportFeed {
    private let reporters: [TestReporter]
    /// Every result fed so far, in order.
    private(set) var fed: [FileResult] = []
    private let began = MonotonicInstant.now()

    /// Starts `reporters` (`seed`: the shuffle's, which some formats name first).
    init(_ reporters: [TestReporter], seed: UInt64?) {
        self.reporters = reporters
        reporters.forEach { $0.start(seed: seed) }
    }

    func feed(_ result: FileResult) {
        fed.append(result)
        reporters.forEach { $0.report(result) }
    }

    /// Closes every reporter with what it was fed; that, for the caller's summary.
    @discardableResult
    func finish() -> ReportedRun {
        let run = ReportedRun(files: fed, seconds: seconds(since: began))
        reporters.forEach { $0.finish(run) }
        return run
    }
}
