import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// While the live view owns the terminal, whatever the run writes to standard output and error
/// (printing, results, errors, warnings) goes to a file of its own instead, and comes back as
/// lines for the view's output pane; ncurses writes to the terminal through a copy of the
/// original descriptor. On the way out the descriptors are put back.
final class OutputLog {
    /// The terminal's descriptors as they were (for ncurses, and to put back).
    let terminalOutput: Int32
    let terminalError: Int32
    private let file: Int32
    private var offset: off_t = 0
    /// Complete lines, the newest last.
    private(set) var lines: [String] = []
    /// The warnings written (`Engine.warningWritten`) not yet read back as lines, and the last
    /// warning line read: the pane folds a warning identical to it into a count on one line.
    private var warningsWritten: [String] = []
    private var lastWarning: (line: String, index: Int, count: Int)?
    /// The bytes after the last newline (a line still being written).
    private var partial: [UInt8] = []
    private(set) var isClosed = false
    /// Lines kept for the pane (the newest).
    static let keptLines = 1000
    /// The file is emptied once read past this many bytes.
    static let fileLimit: off_t = 1 << 20

    nonisolated(unsafe) private static var restore: (output: Int32, error: Int32) = (-1, -1)

    init?() {
        var template = Array("/tmp/ckrun-tui-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        // Appending: after the file is emptied, both descriptors write from its start again.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_APPEND)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        file = fd
        fflush(stdout)
        fflush(stderr)
        terminalOutput = dup(1)
        terminalError = dup(2)
        _ = fcntl(terminalOutput, F_SETFD, FD_CLOEXEC)
        _ = fcntl(terminalError, F_SETFD, FD_CLOEXEC)
        dup2(fd, 1)
        dup2(fd, 2)
        Self.restore = (terminalOutput, terminalError)
    }

    /// Reads what was written since the last call into `lines`; returns the new lines.
    @discardableResult
    func collect() -> [String] {
        fflush(stdout)
        fflush(stderr)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, offset) }
            guard n > 0 else { break }
            bytes += chunk[..<n]
            offset += off_t(n)
        }
        if offset > Self.fileLimit {
            _ = ftruncate(file, 0)
            offset = 0
        }
        guard !bytes.isEmpty else { return [] }
        var pieces = (partial + bytes).split(separator: 10, omittingEmptySubsequences: false)
        partial = Array(pieces.removeLast())
        let new = pieces.map { PaneText.line($0) }
        for line in new { add(line) }
        if lines.count > Self.keptLines {
            let dropped = lines.count - Self.keptLines
            lines.removeFirst(dropped)
            if let last = lastWarning { lastWarning = last.index >= dropped ? (last.line, last.index - dropped, last.count) : nil }
        }
        return new
    }

    /// A warning is noted as written (one line, its text as the pane will read it back).
    func noteWarning(_ message: String) {
        guard !message.contains("\n") else { return }
        warningsWritten.append(PaneText.line(message.utf8))
        if warningsWritten.count > 100 { warningsWritten.removeFirst() }
    }

    /// Adds a line read back; a warning identical to the last warning read (a `[scopeCollision]`
    /// every build) replaces its line, moved to the end with a count: `… (×12)`.
    private func add(_ line: String) {
        guard let noted = warningsWritten.firstIndex(of: line) else { return lines.append(line) }
        warningsWritten.removeSubrange(...noted)
        var count = 1
        if let last = lastWarning, last.line == line, last.index < lines.count {
            lines.remove(at: last.index)
            count = last.count + 1
        }
        lastWarning = (line, lines.count, count)
        lines.append(count == 1 ? line : line + " (×\(count))")
    }

    /// Adds `bytes` to what the run wrote, as if written now (the answer a lent read got, after
    /// its question): the next `collect` reads them in order.
    func append(_ bytes: UnsafeRawBufferPointer) {
        fflush(stdout)
        fflush(stderr)
        var rest = bytes
        while !rest.isEmpty {
            let n = Glibc.write(file, rest.baseAddress, rest.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
    }

    /// After a read the terminal showed (its question and the answer echoed): what it wrote
    /// collected, as the terminal already shows it; the line still being written, as shown.
    func shownAfterRead() -> String {
        collect()
        return unfinishedLine
    }

    /// The lines to show: the complete ones and the one being written.
    var shownLines: [String] {
        partial.isEmpty ? lines : lines + [PaneText.line(partial)]
    }

    /// The line being written (no newline yet), as the pane shows it: a script's question.
    var unfinishedLine: String { PaneText.line(partial) }

    /// Puts standard output and error back on the terminal (async-signal-safe: the paths that end
    /// the process call it too).
    static func putBack() {
        guard restore.output >= 0 else { return }
        dup2(restore.output, 1)
        dup2(restore.error, 2)
        restore = (-1, -1)
    }

    /// Puts the descriptors back and writes what was written since the last `collect` to the
    /// terminal (a turn that ended the process: its last words are seen).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        fflush(stdout)
        fflush(stderr)
        Self.putBack()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, offset) }
            guard n > 0 else { break }
            offset += off_t(n)
            chunk.withUnsafeBytes { ProcessOutput.write(UnsafeRawBufferPointer(rebasing: $0.prefix(n)), to: .output) }
        }
        Glibc.close(file)
    }
}
