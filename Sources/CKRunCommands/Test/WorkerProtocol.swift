import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// How `--jobs` workers and the parent talk. A worker is started once and runs many files:
/// the parent writes a secret token (a line) and then one request per file (`index<TAB>path`)
/// to the worker's standard input, which it runs in turn (the next may come before the previous
/// result went back). The
/// worker moves that pipe off file descriptor 0 before any Lua runs (tests read /dev/null),
/// and answers each request with one line on descriptor `answers`, close-on-exec (no program a
/// test starts holds it): the marker, the token, then the result as `ResultRecords`; then a
/// line saying the file's state closed (`closed`), both in one write once it closed (the parent
/// wakes once a file), or the result alone, held until then, when the watchdog ends the worker
/// as the state closes. Its
/// standard output, a pipe of its own, carries only what its tests and their processes write.
/// Other lines on `answers` are the worker's last words (`[timeout]` as a finalizer ends it).
/// The worker's exit status decides too: a worker that dies (a signal, a non-zero status) while
/// a file is in flight fails that file, whatever it printed.
enum WorkerProtocol {
    static let marker = "\u{1E}ckrun-test-result "
    /// The worker's descriptor for answers.
    static let answers: Int32 = 3

    static func newToken() -> String {
        (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined(separator: "-")
    }

    /// One line on `answers`.
    static func encode(_ head: FileResult, records: [UInt8], token: String) -> [UInt8] {
        Array((marker + token + " ").utf8) + ResultRecords.line(head, records: records) + [10]
    }

    /// Said once a file's state closed, after its result.
    static func closed(token: String) -> [UInt8] { Array((marker + token + " closed\n").utf8) }

    static func isClosed(_ line: [UInt8], token: String) -> Bool { line.elementsEqual((marker + token + " closed").utf8) }

    /// What the parent sends a worker to have the whole records of the file it runs written at
    /// once, on `answers`, after `recordsPrefix` (none between files): a run ending early reports
    /// the tests its running files finished (atk-data 06: under --jobs they were lost).
    static let recordsSignal = SIGUSR2

    static func recordsPrefix(token: String) -> [UInt8] { Array((marker + token + " records ").utf8) }

    /// The records a records line carries, when it is one with this token.
    static func recordsLine(_ line: [UInt8], token: String) -> ArraySlice<UInt8>? {
        let prefix = recordsPrefix(token: token)
        guard line.count >= prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        return line.dropFirst(prefix.count)
    }

    /// `body` with `recordsSignal` held off: a worker's answer is written whole.
    static func holdingRecordsSignal(_ body: () -> Void) {
        var held = sigset_t(), old = sigset_t()
        sigemptyset(&held)
        sigaddset(&held, recordsSignal)
        pthread_sigmask(SIG_BLOCK, &held, &old)
        body()
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }

    /// The result records a line carries (`ResultRecords.fileResult` reads them), when it is a
    /// result line with this token.
    static func resultLine(_ line: [UInt8], token: String) -> ArraySlice<UInt8>? {
        let prefix = Array((marker + token + " ").utf8)
        guard line.count >= prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        return line.dropFirst(prefix.count)
    }

    /// `index<TAB>path`, the path's backslashes and newlines escaped (a file name may hold both).
    static func request(index: Int, path: String) -> String {
        "\(index)\t" + path.replacingAll("\\", with: "\\\\").replacingAll("\n", with: "\\n") + "\n"
    }

    static func parse(request line: String) -> (index: Int, path: String)? {
        guard let tab = line.firstIndex(of: "\t"), let index = Int(line[..<tab]) else { return nil }
        var path = "", escaped = false
        for character in line[line.index(after: tab)...] {
            if escaped {
                path.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                path.append(character)
            }
        }
        return (index, path)
    }
}

/// Reads lines from a file descriptor without stdio buffering ahead.
final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer` (lines before it were handed out).
    private var start = 0
    private var atEnd = false
    /// False after `next` returned a last line that had no newline (its writer stopped mid-line).
    private(set) var lastLineEnded = true

    /// Asked after each second without input; false ends the input. A `--jobs` worker's
    /// answers pipe may be held by a process a test forked without exec (a C module): its end
    /// of input is the worker's exit, not the pipe's EOF.
    var keepWaiting: (() -> Bool)?
    /// Another descriptor read while this one is awaited (a worker's standard output, which
    /// must not fill while its answer is awaited); `read` returns false at its end.
    var alongside: (fd: Int32, read: () -> Bool)?

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline, a copy; nil at end of input (a last unterminated line is returned).
    func next() -> [UInt8]? {
        var scanned = start
        while true {
            if let newline = newline(from: scanned) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line
            }
            if start > 0 {   // keep only the unfinished line
                buffer.removeSubrange(..<start)
                start = 0
            }
            scanned = buffer.count
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                lastLineEnded = false
                return buffer
            }
            if !fill() { atEnd = true }
        }
    }

    /// The next line as text.
    func nextText() -> String? { next().map { String(decoding: $0, as: UTF8.self) } }

    private func newline(from index: Int) -> Int? {
        guard index < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { b in
            memchr(b.baseAddress! + index, 10, b.count - index).map { UnsafeRawPointer($0) - UnsafeRawPointer(b.baseAddress!) }
        }
    }

    /// Reads what is there (up to 64 KiB) onto the end of the buffer; false at end of input.
    private func fill() -> Bool {
        guard awaitInput() else { return false }
        var count = 0
        repeat { count = read(fd, chunk, 65536) } while count < 0 && errno == EINTR
        guard count > 0 else { return false }
        buffer.append(contentsOf: UnsafeRawBufferPointer(start: chunk, count: count))
        return true
    }

    /// Waits for input while `keepWaiting` (if set) says the writer may still write, reading
    /// `alongside` whenever it has input.
    private func awaitInput() -> Bool {
        guard keepWaiting != nil || alongside != nil else { return true }
        while true {
            var ready = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if let alongside { ready.append(pollfd(fd: alongside.fd, events: Int16(POLLIN), revents: 0)) }
            let count = poll(&ready, nfds_t(ready.count), 1000)
            if count < 0 && errno != EINTR { return true }
            if ready.count > 1, ready[1].revents != 0, alongside?.read() == false { alongside = nil }
            if ready[0].revents != 0 { return true }
            if count == 0, let keepWaiting, !keepWaiting() { return false }
        }
    }

    private let chunk = UnsafeMutableRawPointer.allocate(byteCount: 65536, alignment: 16)
    deinit { chunk.deallocate() }
}
