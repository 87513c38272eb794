import Foundation

/// Receives a run's results file by file, in the run's deterministic order.
protocol TestReporter: AnyObject {
    func start(seed: UInt64?)
    func report(_ file: FileResult)
    func finish(_ files: [FileResult], summary: TestSummary, seconds: Double)
}

/// Writes straight to the file descriptors, so output from workers and from us never interleaves mid-line.
enum StandardStreams {
    /// Where the report goes: standard output, or a copy of it once `reserveForReport` gave the
    /// report standard output alone.
    nonisolated(unsafe) private(set) static var report = FileHandle.standardOutput

    static func out(_ text: String) { report.write(Data(text.utf8)) }
    static func out(_ bytes: [UInt8]) { bytes.withUnsafeBytes { report.write(Data($0)) } }
    static func err(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    /// Machine formats own standard output: the report keeps a copy of it and descriptor 1 becomes
    /// standard error, so what a test's child process writes (os.execute("echo …")) cannot break
    /// the TAP, JUnit or JSON document.
    static func reserveForReport() {
        guard report === FileHandle.standardOutput else { return }
        let copy = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return }
        fflush(stdout)
        dup2(2, 1)
        report = FileHandle(fileDescriptor: copy, closeOnDealloc: true)
    }
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
