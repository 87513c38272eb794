#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// Receives a run's results file by file, in the run's deterministic order, through a
/// `ReportFeed` alone: `finish` gets the list of what `report` was given, nothing else.
protocol TestReporter: AnyObject {
    func start(seed: UInt64?)
    func report(_ file: FileResult)
    func finish(_ run: ReportedRun)
}

/// Reports nothing (the report is a file's: `ReportFormat.junitToFile`).
final class SilentReporter: TestReporter {
    func start(seed: UInt64?) {}
    func report(_ file: FileResult) {}
    func finish(_ run: ReportedRun) {}
}

/// Writes straight to the file descriptors, so output from workers and from us never interleaves mid-line.
enum StandardStreams {
    /// Where the report goes: standard output, or a copy of it once `reserveForReport` gave the
    /// report standard output alone.
    nonisolated(unsafe) private(set) static var report = OutputDescriptor.standardOutput

    /// Whether `reserveForReport` gave the report standard output alone (a machine format):
    /// what tests' child processes write then goes to standard error, under --jobs too.
    static var reportOwnsStandardOutput: Bool { report !== OutputDescriptor.standardOutput }

    static func out(_ text: String) { report.write(Data(text.utf8)) }
    static func out(_ bytes: [UInt8]) { bytes.withUnsafeBytes { report.write(Data($0)) } }
    static func err(_ text: String) { ProcessOutput.err(text) }

    /// Machine formats own standard output: the report keeps a copy of it and descriptor 1 becomes
    /// standard error, so what a test's child process writes (os.execute("echo …")) cannot break
    /// the TAP, JUnit or JSON document.
    static func reserveForReport() {
        guard report === OutputDescriptor.standardOutput else { return }
        let copy = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return }
        fflush(stdout)
        dup2(2, 1)
        report = OutputDescriptor(fileDescriptor: copy, closeOnDealloc: true, stream: .output)
    }
}

/// What ends a line for some reader of a report: LF, CR (alone or before LF), and Unicode's
/// NEL, LS and PS. Every report splits (blocks) or escapes (one-line fields) at all of them, so
/// no text a test controls starts a line of the report's own.
enum LineBreaks {
    static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The lines of `text` (CR LF is one break).
    static func lines(_ text: String) -> [String] {
        var lines: [String] = [], line = String.UnicodeScalarView(), afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n" && afterCR { continue }
            if isBreak(scalar) { lines.append(String(line)); line = .init() } else { line.append(scalar) }
        }
        return lines + [String(line)]
    }

    /// Printable ASCII and tabs only, read from its UTF-8 bytes (a test's name, 10,000 times a
    /// run: the scalar check below cost ~450 instructions a name): nothing to escape.
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
        } ?? false
    }

    /// `text` on one line: breaks and other control characters but tab as `\n`, `\r`, `\u{85}`…,
    /// and bytes that are not UTF-8 (`ByteText`) as `\xE9`.
    static func escaped(_ text: String) -> String {
        if isPlain(text) { return text }
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F || isBreak($0) || ByteText.isCarried($0) })
        else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(scalar)
            default:
                if ByteText.isCarried(scalar) {
                    out.append(contentsOf: ByteText.shown(String(scalar)).unicodeScalars)   // a byte that is not UTF-8
                } else if scalar.value < 0x20 || scalar.value == 0x7F || isBreak(scalar) {
                    out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
                } else {
                    out.append(scalar)
                }
            }
        }
        return String(out)
    }
}

extension String {
    /// Each line (split at every `LineBreaks` break) prefixed with `indent` (empty lines stay
    /// empty) and escaped (`LineBreaks.escaped`): a block of a report is the one escaper of its
    /// format for a test's message, traceback and output, so no ESC, NUL or CR a test writes
    /// reaches a reader's terminal (`\e[8m` hid the summary line).
    func indented(_ indent: String) -> String {
        LineBreaks.lines(self).map { $0.isEmpty ? "" : indent + LineBreaks.escaped($0) }.joined(separator: "\n")
    }

    /// The text with exactly one trailing newline, or "" when empty.
    var asLines: String {
        guard !isEmpty else { return "" }
        return hasSuffix("\n") ? self : self + "\n"
    }
}

extension TestResult {
    /// `file:line: full name`, or the file alone for a file that failed to load.
    var location: String { line > 0 ? "\(position): \(shownName)" : shownName }

    /// `file:line` (the file the line is in), or the file alone.
    var position: String { line > 0 ? "\(placeFile):\(line)" : shownFile }

    /// busted's line before a failure's message in a shuffled block, or "".
    var seedLine: String { seed.map { "Random seed: \($0)\n" } ?? "" }
}
