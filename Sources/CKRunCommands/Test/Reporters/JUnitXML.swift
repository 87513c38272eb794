import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// JUnit XML as CI servers read it: a `<testsuite>` per file, a `<testcase>` per test,
/// `<failure>` for failed assertions and `<error>` for everything else; an error outside a test is
/// busted's bare `<error>` in the file's suite.
enum JUnitXML {
    static func document(_ files: [FileResult]) -> String {
        let all = TestSummary(files)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"ckrun test\"\(counts(all)) time=\"\(time(files.reduce(0) { $0 + $1.seconds }))\">\n"
        for file in oneResultPerFile(files) { xml += suite(file) }
        return xml + "</testsuites>\n"
    }

    /// A `<testsuite>` per file: a result added for a file already reported (its state's close
    /// that failed: the watchdog's last resort) joins the file's own (atk-new 09: two suites).
    private static func oneResultPerFile(_ files: [FileResult]) -> [FileResult] {
        var merged: [FileResult] = [], at: [String: Int] = [:]
        for file in files {
            guard let i = at[file.file] else { at[file.file] = merged.count; merged.append(file); continue }
            merged[i].tests += file.tests
            merged[i].output += file.output
            merged[i].seconds += file.seconds
        }
        return merged
    }

    private static func suite(_ file: FileResult) -> String {
        var xml = "  <testsuite name=\(attribute(file.shownFile))\(counts(TestSummary([file]))) time=\"\(time(file.seconds))\">\n"
        for test in file.tests { xml += test.isTest ? testcase(test) : bareError(test) }
        if !file.output.isEmpty { xml += "    <system-out>\(text(file.output))</system-out>\n" }
        return xml + "  </testsuite>\n"
    }

    private static func testcase(_ test: TestResult) -> String {
        var xml = "    <testcase classname=\(attribute(className(test.file))) name=\(attribute(test.name))"
        xml += " file=\(attribute(test.placeFile)) line=\"\(test.line)\" time=\"\(time(test.seconds))\""
        var body = ""
        let message = test.message ?? ""
        let details = [message, test.traceback ?? ""].filter { !$0.isEmpty }.joined(separator: "\n")
        switch test.status {
        case .passed: break
        case .skipped: body += "      <skipped message=\(attribute(message))/>\n"
        case .failed: body += "      <failure message=\(attribute(message)) type=\"assertion\">\(text(details))</failure>\n"
        case .errored: body += "      <error message=\(attribute(message)) type=\"error\">\(text(details))</error>\n"
        }
        if !test.output.isEmpty { body += "      <system-out>\(text(test.output))</system-out>\n" }
        if body.isEmpty { return xml + "/>\n" }
        return xml + ">\n" + body + "    </testcase>\n"
    }

    /// An error outside a test (a file that did not load, a hook, a block's body): busted's bare
    /// `<error>` in the suite, counted among its errors, not its tests.
    private static func bareError(_ test: TestResult) -> String {
        let details = [test.message ?? "", test.traceback ?? ""].filter { !$0.isEmpty }.joined(separator: "\n")
        return "    <error message=\(attribute(test.message ?? "")) type=\"error\">\(text(details))</error>\n"
    }

    private static func counts(_ summary: TestSummary) -> String {
        " tests=\"\(summary.tests)\" failures=\"\(summary.failures)\" errors=\"\(summary.errors)\" skipped=\"\(summary.skipped)\""
    }

    /// The test file's path relative to the working directory (`spec/math_spec.lua`; `./` and
    /// `..` steps resolved), so a class name never starts with a dot; a file outside the working
    /// directory is named by its absolute path.
    static func className(_ file: String, directory: String = BytePath.currentDirectory()) -> String {
        let base = URL(fileURLWithPath: directory).standardizedFileURL.path
        let path = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    private static func time(_ seconds: Double) -> String { fixedPoint(seconds, digits: 3) }

    /// A quoted attribute value: also escapes whitespace that attribute normalisation would eat.
    static func attribute(_ value: String) -> String {
        "\"" + escape(value, inAttribute: true) + "\""
    }

    static func text(_ value: String) -> String { escape(value, inAttribute: false) }

    /// Characters XML 1.0 cannot hold at all (most control characters) become U+FFFD.
    static func escape(_ value: String, inAttribute: Bool) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(value.unicodeScalars.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\n" where inAttribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if ByteText.isCarried(scalar) {
                    out += ByteText.shown(String(scalar))   // a byte that is not UTF-8
                } else if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// `--output junit`: the XML on standard output once the run ends.
final class JUnitReporter: TestReporter {
    func start(seed: UInt64?) {
        if let seed { StandardStreams.err("ckrun test: shuffled with seed \(seed) (run again with --seed \(seed))\n") }
    }

    func report(_ file: FileResult) {}

    func finish(_ run: ReportedRun) {
        StandardStreams.out(JUnitXML.document(run.files))
    }
}

/// `--junit FILE`: the XML written to a file, whatever the chosen output. A file it cannot
/// write loses nothing: the document is kept (`unwritten`) for the run's end to print, as
/// busted's junit handler writes to standard output a file it cannot open.
final class JUnitFileWriter: TestReporter {
    let path: String
    private(set) var failure: String?
    private(set) var unwritten: String?
    /// Where `unwritten` goes: standard output when the file is the run's only report (busted's
    /// `-o junit -Xoutput FILE`), else standard error.
    let fallsBackToStandardOutput: Bool

    init(path: String, fallsBackToStandardOutput: Bool = false) {
        (self.path, self.fallsBackToStandardOutput) = (path, fallsBackToStandardOutput)
    }

    func start(seed: UInt64?) {}
    func report(_ file: FileResult) {}

    func finish(_ run: ReportedRun) {
        let document = JUnitXML.document(run.files)
        do {
            if let problem = BytePath.makeParentDirectories(of: path) { throw ReplacingFile.Failure(description: problem) }
            try ReplacingFile.write(document, to: path)
        } catch let error as ReplacingFile.Failure {
            (failure, unwritten) = (problem(error.description), document)
        } catch {
            (failure, unwritten) = (problem(errorText(error)), document)
        }
    }

    private func problem(_ why: String) -> String {
        Catalogue.cannotWrite.message("cannot write the JUnit report to \(BytePath.shown(path)): \(why); name a file in a directory ckrun can make or write (the report is on standard \(fallsBackToStandardOutput ? "output" : "error") instead)")
    }

    /// Prints the document the file did not get, after `failure`.
    func printUnwritten() {
        guard let unwritten else { return }
        if fallsBackToStandardOutput { StandardStreams.out(unwritten) } else { StandardStreams.err(unwritten) }
    }
}
