import Foundation

/// The runner's transport for results, from the file's Lua state to Swift and from a `--jobs`
/// worker to the parent: fields end with 0x1F, records with 0x1E, and 0x1D escapes (0x1D then
/// '1', '2', '3', '4' stand for 0x1D, 0x1E, 0x1F and a newline; 0x1D '0' alone is nil), so a
/// worker's whole answer is one line. It replaced JSON, whose decoding by Foundation took
/// 40,000 instructions a test, as much as the runner's own work for a test.
enum ResultRecords {
    private static let escape: UInt8 = 0x1D, recordEnd: UInt8 = 0x1E, fieldEnd: UInt8 = 0x1F, newline: UInt8 = 10

    // MARK: Writing

    static func append(_ value: String?, to out: inout [UInt8]) {
        guard let value else { return out += [escape, 0x30, fieldEnd] }
        for byte in value.utf8 {
            switch byte {
            case escape: out += [escape, 0x31]
            case recordEnd: out += [escape, 0x32]
            case fieldEnd: out += [escape, 0x33]
            case newline: out += [escape, 0x34]
            default: out.append(byte)
            }
        }
        out.append(fieldEnd)
    }

    static func endRecord(_ out: inout [UInt8]) { out.append(recordEnd) }

    // MARK: Reading

    /// Calls `body` with each record's fields; the array is reused, copy what you keep. A field
    /// without escapes is decoded straight from the bytes (most are: names, statuses, numbers).
    static func forEachRecord(_ text: String, _ body: ([String?]) -> Void) {
        let bytes = Array(text.utf8)
        var fields: [String?] = []
        fields.reserveCapacity(8)
        var start = 0, escaped = false
        bytes.withUnsafeBufferPointer { b in
            for i in 0..<b.count {
                switch b[i] {
                case escape: escaped = true
                case fieldEnd:
                    fields.append(escaped ? unescape(b[start..<i]) : String(decoding: b[start..<i], as: UTF8.self))
                    start = i + 1
                    escaped = false
                case recordEnd:
                    body(fields)
                    fields.removeAll(keepingCapacity: true)
                    start = i + 1
                default: break
                }
            }
        }
    }

    private static func unescape(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        if field.count == 2, field.first == escape, field.last == 0x30 { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var escaped = false
        for byte in field {
            if escaped {
                escaped = false
                switch byte {
                case 0x31: bytes.append(escape)
                case 0x32: bytes.append(recordEnd)
                case 0x33: bytes.append(fieldEnd)
                case 0x34: bytes.append(newline)
                default: bytes.append(byte)
                }
            } else if byte == escape {
                escaped = true
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Tests and files

    /// One test from its first seven fields, as `T.encode_results` writes them: name, line,
    /// status, output, seconds, message, traceback (a worker's line adds the file after them).
    static func test(_ fields: [String?], file: String) -> TestResult? {
        guard fields.count >= 7, let name = fields[0], let status = fields[2].flatMap(TestStatus.init(rawValue:)) else { return nil }
        return TestResult(name: name, file: file, line: fields[1].flatMap { Int($0) } ?? 0, status: status,
                          message: fields[5], traceback: fields[6], output: fields[3] ?? "",
                          seconds: fields[4].flatMap { Double($0) } ?? 0)
    }

    static func tests(_ text: String, file: String) throws -> [TestResult] {
        var out: [TestResult] = [], bad: [String?]?
        forEachRecord(text) { fields in
            if fields.count == 7, let test = test(fields, file: file) { out.append(test) } else if bad == nil { bad = fields }
        }
        if let bad { throw RecordError(fields: bad) }
        return out
    }

    struct RecordError: Error, CustomStringConvertible {
        let fields: [String?]
        var description: String { "a malformed result record (\(fields.count) fields)" }
    }

    /// A file's result as one line (no newline in it): a record of the file, its output, seconds
    /// and coverage (JSON), then one record per test, its file last.
    static func line(_ result: FileResult) -> String {
        var out: [UInt8] = []
        let coverage = result.coverage.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        for value in [result.file, result.output, String(result.seconds), coverage] { append(value, to: &out) }
        endRecord(&out)
        for t in result.tests {
            for value in [t.name, String(t.line), t.status.rawValue, t.output, String(t.seconds), t.message, t.traceback, t.file] {
                append(value, to: &out)
            }
            endRecord(&out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func fileResult(_ line: Substring) -> FileResult? {
        var result: FileResult?, valid = true
        forEachRecord(String(line)) { fields in
            guard valid else { return }
            guard result != nil else {
                guard fields.count == 4, let file = fields[0] else { valid = false; return }
                var head = FileResult(file: file, output: fields[1] ?? "", seconds: fields[2].flatMap { Double($0) } ?? 0)
                head.coverage = fields[3].flatMap { try? JSONDecoder().decode([String: [String: Int]].self, from: Data($0.utf8)) }
                result = head
                return
            }
            guard fields.count == 8, let file = fields[7], let test = test(fields, file: file) else { valid = false; return }
            result?.tests.append(test)
        }
        return valid ? result : nil
    }
}
