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
    static func forEachRecord(_ bytes: ArraySlice<UInt8>, _ body: ([String?]) -> Void) {
        var fields: [String?] = []
        fields.reserveCapacity(8)
        var escaped = false
        bytes.withUnsafeBufferPointer { b in
            var start = 0
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

    /// One test from its seven fields, as `T.encode_results` writes them: name, line, status,
    /// output, seconds, message, traceback (the runner's own frames taken out of it).
    static func test(_ fields: [String?], file: String) -> TestResult? {
        guard fields.count == 7, let name = fields[0], let status = fields[2].flatMap(TestStatus.init(rawValue:)) else { return nil }
        return TestResult(name: name, file: file, line: fields[1].flatMap { Int($0) } ?? 0, status: status,
                          message: fields[5], traceback: fields[6].map(Traceback.clean), output: fields[3] ?? "",
                          seconds: fields[4].flatMap(seconds) ?? 0)
    }

    /// `NNNe-6` (microseconds, as the runner's Lua writes them) without strtod; other forms through Double.
    private static func seconds(_ text: String) -> Double? {
        var micros = 0, digits = 0
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { break }
            micros = micros &* 10 &+ Int(byte - 0x30)
            digits += 1
        }
        if digits > 0, digits < 16, text.utf8.count == digits + 3, text.hasSuffix("e-6") { return Double(micros) / 1e6 }
        return Double(text)
    }

    static func tests(_ records: ArraySlice<UInt8>, file: String) throws -> [TestResult] {
        var out: [TestResult] = [], bad: [String?]?
        out.reserveCapacity(records.count / 48)
        forEachRecord(records) { fields in
            if let test = test(fields, file: file) { out.append(test) } else if bad == nil { bad = fields }
        }
        if let bad { throw RecordError(fields: bad) }
        return out
    }

    struct RecordError: Error, CustomStringConvertible {
        let fields: [String?]
        var description: String { "a malformed result record (\(fields.count) fields)" }
    }

    /// Tests made on the Swift side (a file that failed to load) as records.
    static func records(_ tests: [TestResult]) -> [UInt8] {
        var out: [UInt8] = []
        for t in tests {
            for value in [t.name, String(t.line), t.status.rawValue, t.output, String(t.seconds), t.message, t.traceback] {
                append(value, to: &out)
            }
            endRecord(&out)
        }
        return out
    }

    /// A file's result as one line (no newline in it): a record of the file, its output, seconds
    /// and coverage (JSON), then its tests' records as its Lua state wrote them (a `--jobs`
    /// worker sends them on undecoded: the parent decodes each test once).
    static func line(_ head: FileResult, records: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(records.count + head.output.utf8.count + 64)
        let coverage = head.coverage.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        for value in [head.file, head.output, String(head.seconds), coverage] { append(value, to: &out) }
        endRecord(&out)
        out += records
        return out
    }

    static func fileResult(_ line: ArraySlice<UInt8>) -> FileResult? {
        guard let headEnd = line.firstIndex(of: recordEnd) else { return nil }
        var head: FileResult?
        forEachRecord(line[...headEnd]) { fields in
            guard fields.count == 4, let file = fields[0] else { return }
            var result = FileResult(file: file, output: fields[1] ?? "", seconds: fields[2].flatMap { Double($0) } ?? 0)
            result.coverage = fields[3].flatMap { try? JSONDecoder().decode([String: [String: Int]].self, from: Data($0.utf8)) }
            head = result
        }
        guard var result = head, let tests = try? tests(line[(headEnd + 1)...], file: result.file) else { return nil }
        result.tests = tests
        return result
    }
}
