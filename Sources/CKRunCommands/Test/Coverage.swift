import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--coverage`: line counts of the code under test from every file's run (workers included),
/// written as luacov's `luacov.stats.out` (luacov's reporters read it) and an lcov `lcov.info`
/// (genhtml renders it). lcov lists the lines luacov's reporter counts (`LuacovLines`), and the
/// run ends with luacov's summary: hits, missed lines and coverage per file.
enum CoverageReport {
    static func merge(_ results: [FileResult]) -> [String: [Int: Int]] {
        var all: [String: [Int: Int]] = [:]
        for result in results {
            for (file, lines) in result.coverage ?? [:] where representable(file) {
                for (line, hits) in lines { if let n = Int(line) { all[file, default: [:]][n, default: 0] += hits } }
            }
        }
        return all
    }

    /// The counts an earlier run left in luacov's stats file (`N:FILE`, then N counts), which
    /// this run adds to, as LuaCov does ("to start from scratch, delete the stats file"). A file
    /// that is not in that form, or too large, is not added (the run's own counts replace it).
    static func previous(_ path: String = "luacov.stats.out") -> [String: [Int: Int]] {
        guard case .bytes(let bytes) = RegularFile.read(path, limit: 256 << 20, what: "the coverage stats") else { return [:] }
        // luacov writes "\n" bytes between its lines; split the bytes there.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var counts: [String: [Int: Int]] = [:]
        var index = 0
        while index + 1 < lines.count {
            let header = lines[index]
            guard let colon = header.firstIndex(of: ":"), let max = Int(header[..<colon]) else { return index == 0 ? [:] : counts }
            let file = String(header[header.index(after: colon)...])
            let hits = lines[index + 1].split(separator: " ").map { Int($0) }
            guard hits.count == max, !hits.contains(nil) else { return [:] }
            for (offset, hit) in hits.enumerated() where hit! > 0 { counts[file, default: [:]][offset + 1, default: 0] += hit! }
            if counts[file] == nil { counts[file] = [:] }
            index += 2
        }
        return counts
    }

    /// `run` added to `earlier`, line by line.
    static func adding(_ run: [String: [Int: Int]], to earlier: [String: [Int: Int]]) -> [String: [Int: Int]] {
        var all = earlier
        for (file, lines) in run {
            for (line, hits) in lines { all[file, default: [:]][line, default: 0] += hits }
            if all[file] == nil { all[file] = [:] }
        }
        return all
    }

    /// Both formats name a file on a line of its own and have no escapes: a chunk name with a
    /// line break or another control character (`load(code, "@a\n3:b")`) names no file on disk
    /// and would forge records, so it is left out.
    static func representable(_ file: String) -> Bool {
        !file.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || LineBreaks.isBreak($0) }
    }

    /// One file's lines as luacov's reporter counts them: hit and missed.
    struct FileSummary {
        let file: String
        let hits: Int
        let missed: Int
    }

    /// Writes both reports; returns each file's summary, as luacov's report ends with.
    @discardableResult
    static func write(_ data: [String: [Int: Int]], stats: String = "luacov.stats.out", lcov: String = "lcov.info") throws(ReplacingFile.Failure) -> [FileSummary] {
        var statsText = ""
        var lcovText = ""
        var summaries: [FileSummary] = []
        for file in data.keys.sorted() {
            let lines = data[file] ?? [:]
            let max = lines.keys.max() ?? 0
            statsText += "\(max):\(file)\n" + (1...Swift.max(max, 1)).map { "\(lines[$0] ?? 0) " }.joined() + "\n"
            let counted = countedLines(file, hits: lines)
            let hit = counted.filter { (lines[$0] ?? 0) > 0 }.count
            lcovText += "TN:\nSF:\(file)\n" + counted.map { "DA:\($0),\(lines[$0] ?? 0)\n" }.joined()
            lcovText += "LF:\(counted.count)\nLH:\(hit)\nend_of_record\n"
            summaries.append(FileSummary(file: file, hits: hit, missed: counted.count - hit))
        }
        // A source named in bytes that are not UTF-8 is written as those bytes (luacov's own).
        try ReplacingFile.write(ByteText.bytes(of: statsText), to: stats)
        try ReplacingFile.write(ByteText.bytes(of: lcovText), to: lcov)
        return summaries
    }

    /// The lines luacov's reporter counts (`LuacovLines`), in order; without the source, the
    /// lines that ran.
    static func countedLines(_ file: String, hits: [Int: Int]) -> [Int] {
        guard let source = BytePath.contents(file) else { return hits.keys.filter { hits[$0]! > 0 }.sorted() }
        return LuacovLines.verdicts(in: [UInt8](source)).enumerated().compactMap { index, verdict in
            verdict.counts(hits: hits[index + 1] ?? 0) ? index + 1 : nil
        }
    }

    /// luacov's summary table: a row per file (hits, missed, coverage) and the total.
    static func summaryTable(_ files: [FileSummary]) -> String {
        let total = FileSummary(file: "Total", hits: files.reduce(0) { $0 + $1.hits }, missed: files.reduce(0) { $0 + $1.missed })
        let rows = [["File", "Hits", "Missed", "Coverage"]] + (files + [total]).map {
            [BytePath.shown($0.file), String($0.hits), String($0.missed), percent($0.hits, of: $0.hits + $0.missed)]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let rule = String(repeating: "-", count: widths.reduce(3, +)) + "\n"
        var text = ""
        for (index, row) in rows.enumerated() {
            if index == 1 || index == rows.count - 1 { text += rule }
            text += row.enumerated().map { column, cell in
                column == 3 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: " ") + "\n"
        }
        return text
    }

    private static func percent(_ part: Int, of whole: Int) -> String {
        fixedPoint(Double(part) / Double(Swift.max(whole, 1)) * 100, digits: 2) + "%"
    }
}
