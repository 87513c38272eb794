import Foundation

/// How `--jobs` workers and the parent talk. A worker is started once and runs many files:
/// the parent writes a secret token (a line) and then one request per file (`index<TAB>path`)
/// to the worker's standard input, the next only after the previous result came back. The
/// worker moves that pipe off file descriptor 0 before any Lua runs (tests read /dev/null),
/// and answers each request with one line on standard output: the marker, the token, then the
/// result as `ResultRecords`. A line without the token (a test printing a fake result) is just output. The
/// worker's exit status decides too: a worker that dies (a signal, a non-zero status) while
/// a file is in flight fails that file, whatever it printed.
enum WorkerProtocol {
    static let marker = "\u{1E}ckrun-test-result "

    static func newToken() -> String {
        (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined(separator: "-")
    }

    static func encode(_ head: FileResult, records: [UInt8], token: String) -> [UInt8] {
        Array((marker + token + " ").utf8) + ResultRecords.line(head, records: records) + [10]
    }

    /// The result a line carries, when it is a result line with this token.
    static func decode(line: ArraySlice<UInt8>, token: String) -> FileResult? {
        let prefix = Array((marker + token + " ").utf8)
        guard line.count >= prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        return ResultRecords.fileResult(line.dropFirst(prefix.count))
    }

    static func request(index: Int, path: String) -> String { "\(index)\t\(path)\n" }

    static func parse(request line: String) -> (index: Int, path: String)? {
        guard let tab = line.firstIndex(of: "\t"), let index = Int(line[..<tab]) else { return nil }
        return (index, String(line[line.index(after: tab)...]))
    }
}

/// Reads lines from a file descriptor without stdio buffering ahead.
final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer` (lines before it were handed out).
    private var start = 0
    private var atEnd = false

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; nil at end of input (a last unterminated line is returned).
    func next() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = buffer[start..<newline]
                start = newline + 1
                return line
            }
            if start > 0 {   // keep only the unfinished line
                buffer.removeSubrange(..<start)
                start = 0
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return buffer[...]
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { atEnd = true } else { buffer += chunk[..<count] }
        }
    }

    /// The next line as text.
    func nextText() -> String? { next().map { String(decoding: $0, as: UTF8.self) } }
}

/// The worker's side: runs each requested file and answers with its result.
enum WorkerLoop {
    static func serve(settings: TestRunSettings) {
        // The requests come on fd 0; the tests get /dev/null there instead.
        let requests = dup(0)
        let null = open("/dev/null", O_RDONLY)
        if null >= 0 { dup2(null, 0); close(null) }
        let reader = LineReader(fd: requests)
        guard let token = reader.nextText() else { return }
        while let line = reader.nextText(), let request = WorkerProtocol.parse(request: line) {
            let (head, records) = SpecFileRunner(file: request.path, fileIndex: request.index, settings: settings).runRecords()
            let answer = WorkerProtocol.encode(head, records: records, token: token)
            answer.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) }
        }
    }
}
