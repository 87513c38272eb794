#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The default output: one line per test as it finishes, then the failures and errors in detail.
/// Labels are coloured on a terminal, never when NO_COLOR is set (https://no-color.org) or
/// output is not a terminal.
final class TextReporter: TestReporter {
    let colour: Bool
    /// Each status's label as bytes, in `TestStatus.allCases` order (built once: a line per
    /// test; a Dictionary keyed by the status cost ~440 instructions a lookup, 4.4M a run of
    /// 10,000 tests in the process that reports, beside `--jobs` workers).
    private let labels: [[UInt8]]

    /// busted's -v: the output of passing tests too, under their lines.
    let verbose: Bool

    init(colour: Bool = TextReporter.colourWanted(), verbose: Bool = false) {
        self.colour = colour
        self.verbose = verbose
        labels = TestStatus.allCases.map { Array(Self.label($0, colour: colour).utf8) }
    }

    static func colourWanted() -> Bool {
        if let noColour = Environment.value("NO_COLOR"), !noColour.isEmpty { return false }
        if Environment.value("TERM") == "dumb" { return false }
        return isatty(1) == 1
    }

    func start(seed: UInt64?) {
        if let seed { StandardStreams.out("Shuffled with seed \(seed) (run again with --seed \(seed))\n") }
    }

    /// One line per test, built as bytes (10,000 tests: the parent's main cost under --jobs).
    func report(_ file: FileResult) {
        var out: [UInt8] = []
        out.reserveCapacity(file.output.utf8.count + file.tests.count * 80)
        out += file.output.indented("").asLines.utf8   // escaped as every block is
        var path: (file: String, bytes: [UInt8]) = ("", [])   // a file's tests share it
        let tests = file.tests
        // By index, each field read in place: `for test in` copied and destroyed each test (~340
        // instructions, 3.4M a run of 10,000 tests in the process that reports).
        for index in tests.indices {
            let test = Field(tests, index)
            out += labels[test.status.position]
            out.append(0x20)
            if test.line > 0 {   // test.location, without building a string per test
                let place = test.placeFile
                if path.file != place { path = (place, Array(LineBreaks.escaped(place).utf8) + [0x3A]) }
                out += path.bytes
                Self.appendDecimal(test.line, to: &out)
                out += [0x3A, 0x20]
            }
            Self.append(LineBreaks.escaped(test.shownName), to: &out)
            if test.status == .skipped, let reason = test.message, reason != "pending" { out += " (\(LineBreaks.escaped(reason)))".utf8 }
            out.append(0x0A)
            if verbose, !test.didFail, !test.output.isEmpty { out += test.output.indented("  ").asLines.utf8 }
        }
        StandardStreams.out(out)
    }


    /// A test read in place in its array: each field is read from the array, no copy of the test made.
    private struct Field {
        let tests: [TestResult], index: Int
        init(_ tests: [TestResult], _ index: Int) { (self.tests, self.index) = (tests, index) }
        var status: TestStatus { tests[index].status }
        var line: Int { tests[index].line }
        var file: String { tests[index].file }
        var placeFile: String { tests[index].placeFile }
        var shownName: String { tests[index].shownName }
        var message: String? { tests[index].message }
        var output: String { tests[index].output }
        var didFail: Bool { tests[index].didFail }
    }

    /// A string's bytes in one copy when it has them contiguous (as native strings do).
    private static func append(_ text: String, to out: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out += text.utf8 }
    }

    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value >= 10 else { return out.append(UInt8(0x30 + max(0, value))) }
        appendDecimal(value / 10, to: &out)
        out.append(UInt8(0x30 + value % 10))
    }

    func finish(_ run: ReportedRun) {
        let (files, summary, seconds) = (run.files, run.summary, run.seconds)
        // This closing step runs after the last file: each test's status is read in place (filter
        // closures copied every test, 3.4M of this step's 4.5M instructions on 10,000 passing tests).
        var failed: [TestResult] = []
        for file in files {
            file.tests.withUnsafeBufferPointer { tests in
                for index in tests.indices where tests[index].status == .failed || tests[index].status == .errored {
                    failed.append(tests[index])
                }
            }
        }
        var text = ""
        if !failed.isEmpty {
            text += "\nFailures and errors:\n"
            for (number, test) in failed.enumerated() {
                let location = test.location
                text += "\n\(number + 1)) \(label(test.status)) \(LineBreaks.escaped(location))\n"
                text += details(test).indented("   ") + "\n"
            }
        }
        // An error of the run itself (no test file found) is neither a test nor a file here.
        let runFiles = files.filter { $0.isOfTheRun || $0.followsItsFile == true }, tests = summary.total - runFiles.reduce(0) { $0 + ($1.isOfTheRun ? $1.tests.count : 0) }
        let testCount = tests == 1 ? "1 test" : "\(tests) tests"
        let fileCount = files.count - runFiles.count == 1 ? "1 file" : "\(files.count - runFiles.count) files"
        text += "\nRan \(testCount) from \(fileCount) in \(fixedPoint(seconds, digits: 2)) s"
        if summary.failed > 0 { text += ": \(plural(summary.failures, "failure")), \(plural(summary.errors, "error"))" }
        StandardStreams.out(text + "\n")
    }

    private func details(_ test: TestResult) -> String {
        var parts = [test.message ?? ""]
        if test.seed != nil { parts.insert(test.seedLine.trimmingTrailingNewlines, at: 0) }   // busted's line before the message
        if let traceback = test.traceback, !traceback.isEmpty { parts.append(traceback) }
        if !test.output.isEmpty { parts.append("output:\n" + test.output.indented("  ").trimmingTrailingNewlines) }
        return parts.joined(separator: "\n")
    }

    private func label(_ status: TestStatus) -> String { Self.label(status, colour: colour) }

    private static func label(_ status: TestStatus, colour: Bool) -> String {
        let (text, code) = switch status {
        case .passed: ("ok   ", "32")
        case .failed: ("FAIL ", "31")
        case .errored: ("ERROR", "1;31")
        case .skipped: ("SKIP ", "33")
        }
        return colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func plural(_ n: Int, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }
}

extension String {
    /// The text without the line breaks (`LineBreaks`) it ends with.
    var trimmingTrailingNewlines: String {
        var scalars = unicodeScalars
        while let last = scalars.last, LineBreaks.isBreak(last) { scalars.removeLast() }
        return String(scalars)
    }
}
