import Foundation

/// Receives a run's results file by file, in the run's deterministic order.
protocol TestReporter: AnyObject {
    func start(seed: UInt64?)
    func report(_ file: FileResult)
    func finish(_ files: [FileResult], summary: TestSummary, seconds: Double)
}

/// Writes straight to the file descriptors, so output from workers and from us never interleaves mid-line.
enum StandardStreams {
    static func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    static func err(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}

extension String {
    /// Each line prefixed with `indent` (empty lines stay empty).
    func indented(_ indent: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : indent + $0 }
            .joined(separator: "\n")
    }

    /// The text with exactly one trailing newline, or "" when empty.
    var asLines: String {
        guard !isEmpty else { return "" }
        return hasSuffix("\n") ? self : self + "\n"
    }
}

extension TestResult {
    /// `file:line: full name`, or the file alone for a file that failed to load.
    var location: String { line > 0 ? "\(position): \(name)" : name }

    /// `file:line`, or the file alone.
    var position: String { line > 0 ? "\(file):\(line)" : file }
}
