import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The runner's transport for results, from the file's Lua state to Swift and from a `--jobs`
/// worker to the parent: fields end with 0x1F, records with 0x1E, and 0x1D escapes (0x1D then
/// '1', '2', '3', '4' stand for 0x1D, 0x1E, 0x1F and a newline; 0x1D '0' alone is nil), so a
/// worker's whole answer is one line. It replaced JSON, whose decoding by Foundation took
/// 40,000 instructions a test, as much as the runner's own work for a test.
enum ResultRecords {
    private static let escape: UInt8 = 0x1D, recordEnd: UInt8 = 0x1E, fieldEnd: UInt8 = 0x1F, newline: UInt8 = 10

    // MARK: Writing

    /// A field, escaped by the one escaper of this format (ckrunner.c's, which also writes the
    /// records of a file's tests).
    static func append(_ value: String?, to out: inout [UInt8]) { TestSupport.appendRecordField(value, to: &out) }

    static func endRecord(_ out: inout [UInt8]) { out.append(recordEnd) }

    // MARK: Reading

    /// Calls `body` with each record's fields, as ranges of `b` (the array is reused); `text`
    /// reads a field.
    /// One compare a byte (`recordEnd` and `fieldEnd` are neighbours), through the base pointer:
    /// the `--jobs` parent scans every byte of 10,000 tests' records.
    private static func forEachRecord(_ b: UnsafeBufferPointer<UInt8>, _ body: ([Range<Int>]) -> Void) {
        guard let base = b.baseAddress else { return }
        var fields: [Range<Int>] = []
        fields.reserveCapacity(12)
        var start = 0
        for i in 0..<b.count where base[i] &- recordEnd < 2 {
            if base[i] == fieldEnd {
                fields.append(start..<i)
            } else {
                body(fields)
                fields.removeAll(keepingCapacity: true)
            }
            start = i + 1
        }
    }

    /// How many records `b` holds.
    private static func recordCount(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = b.baseAddress else { return 0 }
        var count = 0
        for i in 0..<b.count where base[i] == recordEnd { count += 1 }
        return count
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
        return ByteText.text(bytes)
    }

    /// Every record's fields (nil for the nil mark): records of any shape (`.busted`'s options).
    static func fields(_ bytes: [UInt8]) -> [[String?]] {
        bytes.withUnsafeBufferPointer { b in
            var out: [[String?]] = []
            forEachRecord(b) { ranges in out.append(ranges.map { text(b, $0) }) }
            return out
        }
    }

    // MARK: Tests and files

    /// The tests of a file from their records, twelve fields each, as the runner's `record`
    /// writes them: name, line, status, output, seconds, message, traceback (the runner's own
    /// frames taken out of it), own name and descriptor (nil: the name, "it"), the seed that
    /// shuffled its block, the file its line is in (nil: none, the spec file) and where its
    /// failure was raised (`RaiseSite`; nil: no place known). Read straight from the
    /// bytes: a passing test at the top level of its file makes one string, its name.
    static func tests(_ records: ArraySlice<UInt8>, file: String) throws -> [TestResult] {
        try records.withUnsafeBufferPointer { b throws(RecordError) in try tests(b, file: file) }
    }

    private static func tests(_ b: UnsafeBufferPointer<UInt8>, file: String) throws(RecordError) -> [TestResult] {
        var out: [TestResult] = []
        out.reserveCapacity(recordCount(b))
        var bad: Int?
        forEachRecord(b) { fields in
            if fields.count == 13, let amendment = test(b, fields.dropLast(), file: file) {
                amend(&out, with: amendment)
            } else if let test = test(b, fields[...], file: file) { out.append(test) } else if bad == nil { bad = fields.count }
        }
        if let bad { throw RecordError(fields: bad) }
        return out
    }

    /// A thirteenth field marks an error that belongs to the test recorded last (the runner's end of
    /// a test: the hosts it left, destroyed after its `after_each` hooks): the test is then
    /// reported once: errored if it had passed, with the error's message after its own if not.
    private static func amend(_ out: inout [TestResult], with error: TestResult) {
        guard var test = out.last, test.name == error.name, test.line == error.line, test.descriptor == nil else {
            return out.append(error)
        }
        if test.didFail {
            test.message = [test.message, error.message].compactMap { $0 }.joined(separator: "\n")
        } else {
            (test.status, test.message, test.traceback, test.raised) = (.errored, error.message, error.traceback, error.raised)
        }
        out[out.count - 1] = test
    }

    private static func test(_ b: UnsafeBufferPointer<UInt8>, _ f: ArraySlice<Range<Int>>, file: String) -> TestResult? {
        guard f.count == 12, let name = text(b, f[0]), let status = status(b, f[2]) else { return nil }
        let line = integer(b, f[1])
        return TestResult(name: name, file: file, line: line.end == f[1].upperBound ? line.value ?? 0 : 0, status: status,
                          message: text(b, f[5]), traceback: text(b, f[6]).map(Traceback.clean),
                          output: f[3].isEmpty ? "" : text(b, f[3]) ?? "", seconds: seconds(b, f[4]) ?? 0,
                          ownName: text(b, f[7]), descriptor: text(b, f[8]), seed: text(b, f[9]), source: text(b, f[10]),
                          raised: text(b, f[11]).flatMap(RaiseSite.init(record:)))
    }

    /// A field's text; nil for the nil mark (0x1D '0').
    private static func text(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String? {
        let field = b[r]
        guard field.contains(escape) else { return ByteText.text(field) }
        return unescape(field)
    }

    private static let statuses: [(bytes: [UInt8], status: TestStatus)] =
        [TestStatus.passed, .failed, .errored, .skipped].map { (Array($0.rawValue.utf8), $0) }

    private static func status(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> TestStatus? {
        statuses.first { $0.bytes.elementsEqual(b[r]) }?.status
    }

    /// The decimal digits at the start of the field: their value and where they end.
    private static func integer(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> (value: Int?, end: Int) {
        var value = 0, i = r.lowerBound
        while i < r.upperBound, i - r.lowerBound < 18, b[i] >= 0x30 && b[i] <= 0x39 {
            value = value * 10 + Int(b[i] - 0x30)
            i += 1
        }
        return (i > r.lowerBound ? value : nil, i)
    }

    /// `NNNe-6` (microseconds, as the runner's Lua writes them) without strtod; other forms through Double.
    private static func seconds(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Double? {
        let (micros, end) = integer(b, r)
        if let micros, r.upperBound - end == 3, b[end] == 0x65, b[end + 1] == 0x2D, b[end + 2] == 0x36 { return Double(micros) / 1e6 }
        return text(b, r).flatMap { Double($0) }
    }

    struct RecordError: Error, CustomStringConvertible {
        let fields: Int
        var description: String { "a malformed result record (\(fields) fields)" }
    }

    /// Tests made on the Swift side (a file that failed to load) as records.
    static func records(_ tests: [TestResult]) -> [UInt8] {
        var out: [UInt8] = []
        for t in tests {
            for value in [t.name, String(t.line), t.status.rawValue, t.output, String(t.seconds), t.message, t.traceback,
                          t.ownName, t.descriptor, t.seed, t.source, t.raised?.record] {
                append(value, to: &out)
            }
            endRecord(&out)
        }
        return out
    }

    /// A file's result as one line (no newline in it): a record of the file, its output, seconds,
    /// coverage (JSON), the status of its first `os.exit` and, under --watch, one field per file it loaded, then its tests' records
    /// as its Lua state wrote them (a `--jobs` worker sends them on undecoded: the parent
    /// decodes each test once).
    static func line(_ head: FileResult, records: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(records.count + head.output.utf8.count + 64)
        let coverage = head.coverage.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        let fields = [head.file, head.output, String(head.seconds), coverage, head.exitStatus.map { String($0) }]
            + head.loadedFiles.map(Optional.some)
        for value in fields { append(value, to: &out) }
        endRecord(&out)
        out += records
        return out
    }

    /// The file a worker's answer names (its head record's first field), without decoding the rest:
    /// the parent asks it of each answer before it decodes that answer once.
    static func fileName(_ line: ArraySlice<UInt8>) -> String? {
        guard let headEnd = line.firstIndex(of: recordEnd) else { return nil }
        let bodyStart = headEnd + 1 - line.startIndex
        return line.withUnsafeBufferPointer { b -> String? in
            var file: String?
            forEachRecord(UnsafeBufferPointer(rebasing: b[..<bodyStart])) { f in
                if let first = f.first { file = text(b, first) }
            }
            return file
        }
    }

    static func fileResult(_ line: ArraySlice<UInt8>) -> FileResult? {
        guard let headEnd = line.firstIndex(of: recordEnd) else { return nil }
        let bodyStart = headEnd + 1 - line.startIndex
        return line.withUnsafeBufferPointer { b -> FileResult? in
            var head: FileResult?
            forEachRecord(UnsafeBufferPointer(rebasing: b[..<bodyStart])) { f in
                guard f.count >= 5, let file = text(b, f[0]) else { return }
                var result = FileResult(file: file, output: text(b, f[1]) ?? "", seconds: text(b, f[2]).flatMap { Double($0) } ?? 0)
                result.coverage = text(b, f[3]).flatMap { try? JSONDecoder().decode([String: [String: Int]].self, from: Data($0.utf8)) }
                result.exitStatus = text(b, f[4]).flatMap { Int32($0) }
                result.loadedFiles = f[5...].compactMap { text(b, $0) }
                head = result
            }
            guard var result = head, let tests = try? tests(UnsafeBufferPointer(rebasing: b[bodyStart...]), file: result.file) else { return nil }
            result.tests = tests
            return result
        }
    }
}
