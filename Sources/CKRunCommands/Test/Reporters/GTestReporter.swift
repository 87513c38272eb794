#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `-o gtest`: busted's googletest-style report (its `outputHandlers/gtest.lua`): a `[ RUN ]`
/// line and an outcome line per test, a block per file, the totals and the lists of skipped,
/// failed and errored tests at the end; coloured as the text report is.
final class GTestReporter: TestReporter {
    private let verbose: Bool
    private let colour: Bool
    private var files = 0

    init(verbose: Bool = false, colour: Bool = TextReporter.colourWanted()) {
        self.verbose = verbose
        self.colour = colour
    }

    private func paint(_ sgr: String, _ text: String) -> String { colour ? "\u{1B}[\(sgr)m\(text)\u{1B}[0m" : text }
    private func green(_ text: String) -> String { paint("32", text) }

    func start(seed: UInt64?) {
        var text = ""
        if let seed { text += paint("33", "Note: Randomizing test order with a seed of \(seed).\n") }
        text += green("[==========]") + " Running tests from scanned files.\n"
        StandardStreams.out(text + green("[----------]") + " Global test environment setup.\n")
    }

    func report(_ file: FileResult) {
        if !file.isOfTheRun && file.followsItsFile != true { files += 1 }
        let name = LineBreaks.escaped(file.shownFile)
        var text = file.output.asLines + green("[----------]") + " Running tests from \(name)\n"
        var count = 0
        for test in file.tests {
            guard test.isTest else { text += description(test); continue }
            count += 1
            // What the test printed, where busted (which gathers nothing) shows it: while it runs.
            text += green("[ RUN      ]") + " \(fullName(test))\n" + test.output.asLines
            // busted writes the message at the failure event, before the test's end line.
            if test.didFail { text += description(test) }
            text += "\(label(test.status)) \(fullName(test)) (\(milliseconds(test.seconds)) ms)\n"
        }
        text += green("[----------]") + " \(count) \(count == 1 ? "test" : "tests") from \(name) (\(milliseconds(file.seconds)) ms total)\n\n"
        StandardStreams.out(text)
    }

    func finish(_ run: ReportedRun) {
        let (all, summary, seconds) = (run.files.flatMap(\.tests), run.summary, run.seconds)
        let tests = all.filter(\.isTest)
        var text = green("[----------]") + " Global test environment teardown.\n"
        text += green("[==========]") + " \(plural(tests.count, "test")) from \(plural(files, "test file")) ran. (\(milliseconds(seconds)) ms total)\n"
        text += green("[  PASSED  ]") + " \(plural(summary.passed, "test")).\n"
        let lists: [(TestStatus, String)] = [(.skipped, "test"), (.failed, "test"), (.errored, "error")]
        for (status, word) in lists {
            let listed = all.filter { $0.status == status }
            guard !listed.isEmpty else { continue }
            text += "\(label(status)) \(plural(listed.count, word)), listed below:\n"
            for test in listed { text += "\(label(status)) \(fullName(test))\n" }
        }
        if summary.skipped + summary.failed > 0 { text += "\n" }
        let footers: [(Int, String)] = [(summary.skipped, "SKIPPED TEST"), (summary.failures, "FAILED TEST"), (summary.errors, "ERROR")]
        for (count, word) in footers where count > 0 { text += " \(count) \(count == 1 ? word : word + "S")\n" }
        StandardStreams.out(text)
    }

    /// busted's `file @ line: full name`.
    private func fullName(_ test: TestResult) -> String {
        if test.isOfTheRun { return TestResult.theRun }
        let place = test.line > 0 ? "\(LineBreaks.escaped(test.placeFile)) @ \(test.line): " : "\(LineBreaks.escaped(test.file)): "
        return place + LineBreaks.escaped(test.name)
    }

    /// busted's failureDescription: the message, and under -v the traceback as busted's
    /// getTrace keeps it (from the first frame outside luassert and C) between blank lines.
    private func description(_ test: TestResult) -> String {
        var text = test.seedLine + (test.message ?? "Nil error") + "\n"
        if verbose, let traceback = test.traceback.map(Self.bustedTraceback), !traceback.isEmpty { text += "\n" + traceback + "\n\n" }
        return text
    }

    /// A traceback without its leading luassert and C frames (busted's getTrace starts below them).
    static func bustedTraceback(_ traceback: String) -> String {
        var lines = LineBreaks.lines(traceback)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("stack traceback:") }) else { return traceback }
        let first = header + 1
        var end = first
        while end < lines.count, Self.isLuassertOrC(lines[end]) { end += 1 }
        lines.removeSubrange(first..<end)
        return lines.joined(separator: "\n")
    }

    private static func isLuassertOrC(_ frame: String) -> Bool {
        let place = frame.drop { $0 == "\t" || $0 == " " }
        if place.hasPrefix("[C]") { return true }
        guard let colon = place.firstIndex(of: ":") else { return false }
        let file = place[..<colon]
        return file.hasSuffix(".lua") && (file.hasPrefix("luassert/") || file.contains("/luassert/") || file.contains("\\luassert\\"))
    }

    private func label(_ status: TestStatus) -> String {
        switch status {
        case .passed: green("[       OK ]")
        case .skipped: paint("33", "[ SKIPPED  ]")
        case .failed: paint("31", "[  FAILED  ]")
        case .errored: paint("35", "[  ERROR   ]")
        }
    }

    private func milliseconds(_ seconds: Double) -> String { fixedPoint(seconds * 1000, digits: 2) }
    private func plural(_ n: Int, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }
}
