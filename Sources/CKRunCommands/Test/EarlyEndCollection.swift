#if canImport(Glibc)
import Glibc
#endif

/// What a `--jobs` run collected that a run ending early reports besides what it reported: the
/// files stored but not reported yet (their turn had not come), then what the workers sent of
/// the files they were running (whole records only), in the run's order.
struct EarlyEndCollection {
    let base: Int
    var running: [Int: (file: String, pid: pid_t)] = [:]
    var stored: [Int: FileResult] = [:]
    var sent: [Int: [UInt8]] = [:]

    /// The files the workers run, in the run's order.
    var runningFiles: [String] { running.sorted { $0.key < $1.key }.map(\.value.file) }

    func unreported(after reportedCount: Int) -> [FileResult] {
        let first = reportedCount - base
        var results: [(Int, FileResult)] = stored.filter { $0.key >= first }.map { ($0.key, $0.value) }
        for (position, (file, _)) in running where stored[position] == nil {
            guard let records = sent[position], let end = records.lastIndex(of: 0x1E),
                  let tests = try? ResultRecords.tests(records[...end], file: file), !tests.isEmpty else { continue }
            var result = FileResult(file: file)
            result.tests = tests
            results.append((position, result))
        }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
