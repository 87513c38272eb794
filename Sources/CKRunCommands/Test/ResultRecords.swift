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

    /// The records of `text`, each a list of fields (nil where nil was written).
    static func records(_ text: String) -> [[String?]] {
        var records: [[String?]] = [], fields: [String?] = [], bytes: [UInt8] = []
        var isNil = false, escaped = false
        for byte in text.utf8 {
            if escaped {
                escaped = false
                switch byte {
                case 0x30: isNil = true
                case 0x31: bytes.append(escape)
                case 0x32: bytes.append(recordEnd)
                case 0x33: bytes.append(fieldEnd)
                case 0x34: bytes.append(newline)
                default: bytes.append(byte)
                }
                continue
            }
            switch byte {
            case escape: escaped = true
            case fieldEnd:
                fields.append(isNil ? nil : String(decoding: bytes, as: UTF8.self))
                bytes.removeAll(keepingCapacity: true)
                isNil = false
            case recordEnd:
                records.append(fields)
                fields.removeAll(keepingCapacity: true)
            default: bytes.append(byte)
            }
        }
        return records
    }

    // MARK: Tests and files

    /// One test as `T.encode_results` writes it: name, line, status, output, seconds, message, traceback.
    static func test(_ fields: [String?], file: String) -> TestResult? {
        guard fields.count == 7, let name = fields[0], let status = fields[2].flatMap(TestStatus.init(rawValue:)) else { return nil }
        return TestResult(name: name, file: file, line: fields[1].flatMap { Int($0) } ?? 0, status: status,
                          message: fields[5], traceback: fields[6], output: fields[3] ?? "",
                          seconds: fields[4].flatMap { Double($0) } ?? 0)
    }

    static func tests(_ text: String, file: String) throws -> [TestResult] {
        try records(text).map { fields in
            guard let test = test(fields, file: file) else { throw RecordError(fields: fields) }
            return test
        }
    }

    struct RecordError: Error, CustomStringConvertible {
        let fields: [String?]
        var description: String { "a malformed result record (\(fields.count) fields)" }
    }

    /// A file's result as one line (no newline in it): a record of the file, its output, seconds
    /// and coverage (JSON), then one record per test with its file.
    static func line(_ result: FileResult) -> String {
        var out: [UInt8] = []
        let coverage = result.coverage.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        for value in [result.file, result.output, String(result.seconds), coverage] { append(value, to: &out) }
        endRecord(&out)
        for t in result.tests {
            for value in [t.name, t.file, String(t.line), t.status.rawValue, t.output, String(t.seconds), t.message, t.traceback] {
                append(value, to: &out)
            }
            endRecord(&out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func fileResult(_ line: Substring) -> FileResult? {
        let all = records(String(line))
        guard let head = all.first, head.count == 4, let file = head[0] else { return nil }
        var result = FileResult(file: file, output: head[1] ?? "", seconds: head[2].flatMap { Double($0) } ?? 0)
        result.coverage = head[3].flatMap { try? JSONDecoder().decode([String: [String: Int]].self, from: Data($0.utf8)) }
        for fields in all.dropFirst() {
            guard fields.count == 8, let file = fields[1] else { return nil }
            var trimmed = fields
            trimmed.remove(at: 1)
            guard let test = test(trimmed, file: file) else { return nil }
            result.tests.append(test)
        }
        return result
    }
}
