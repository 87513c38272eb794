#if canImport(Glibc)
import Glibc
#endif

/// What a `--jobs` run collected that a run ending early reports besides what it reported: the
/// files stored but not reported yet (their turn had not come), then what the workers sent of
/// the files they were running (whole records only), in the run's order.
struct EarlyEndCollection {
    let base: Int
    /// The run's files by position.
    var files: [String] = []
    var running: [Int: (file: String, pid: pid_t)] = [:]
    var stored: [Int: FileResult] = [:]
    var sent: [Int: [UInt8]] = [:]

    /// The files the workers run, in the run's order.
    var runningFiles: [String] { running.sorted { $0.key < $1.key }.map(\.value.file) }

    /// The files that never started though a later one in the run's order finished: a worker
    /// was asked for them after the file it still runs (`--jobs` hands the largest out first),
    /// so a report that lists the files after them must say they did not run (atk-new3 01).
    func notRun(after reportedCount: Int) -> [String] {
        guard let last = stored.keys.max() else { return [] }
        let first = max(0, reportedCount - base)
        guard first < last else { return [] }
        return (first..<last).filter { stored[$0] == nil && running[$0] == nil && $0 < files.count }.map { files[$0] }
    }

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
