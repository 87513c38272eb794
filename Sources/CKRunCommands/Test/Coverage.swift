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
    /// Where `--coverage` writes, in the working directory (checked with the run's other outputs).
    static let statsFile = "luacov.stats.out", lcovFile = "lcov.info"

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
    /// this run adds to, as LuaCov does ("to start from scratch, delete the stats file"). As
    /// luacov's loader, what parses before a damaged entry is kept (a writer killed mid-line
    /// leaves one short line); `damaged` then says where the rest was left out.
    static func previous(_ path: String = statsFile) -> (counts: [String: [Int: Int]], damaged: String?) {
        switch RegularFile.read(path, limit: 256 << 20, what: "the coverage stats") {
        case .missing: return ([:], nil)
        case .refused(let message): return ([:], message)
        case .bytes(let bytes): return parse(bytes, path: path)
        }
    }

    static func parse(_ bytes: [UInt8], path: String) -> (counts: [String: [Int: Int]], damaged: String?) {
        // luacov writes "\n" bytes between its lines; split the bytes there.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var counts: [String: [Int: Int]] = [:]
        var index = 0
        func damaged() -> (counts: [String: [Int: Int]], damaged: String?) {
            (counts, Catalogue.cannotRead.message(
                "\(BytePath.shown(path)) line \(index + 1) is not luacov's form (N:FILE, then N counts); what parses up to there is added to, the rest is left out; delete the file to start from scratch"))
        }
        while index < lines.count {
            let header = lines[index]
            if header.isEmpty && index == lines.count - 1 { break }
            guard index + 1 < lines.count, let colon = header.firstIndex(of: ":"), let max = Int(header[..<colon]), max >= 0 else { return damaged() }
            let file = String(header[header.index(after: colon)...])
            let words = lines[index + 1].split(separator: " ").map { Int($0) }
            // The counts that parse, up to the first that does not (a line cut short keeps its head).
            let hits = words.prefix(max).prefix { $0 != nil }.map { $0! }
            var fileCounts = counts[file] ?? [:]
            for (offset, hit) in hits.enumerated() where hit > 0 { fileCounts[offset + 1, default: 0] += hit }
            counts[file] = fileCounts
            index += 1
            guard hits.count == max, words.count == max else { return damaged() }
            index += 1
        }
        return (counts, nil)
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
    /// `inside`: under `--sandbox`, the project's directory, the only place a source is read from.
    static func write(_ data: [String: [Int: Int]], stats: String = statsFile, lcov: String = lcovFile,
                      inside: String? = nil) throws(ReplacingFile.Failure) -> [FileSummary] {
        var statsText = ""
        var lcovText = ""
        var summaries: [FileSummary] = []
        for file in data.keys.sorted() {
            let lines = data[file] ?? [:]
            let max = lines.keys.max() ?? 0
            statsText += "\(max):\(file)\n" + (1...Swift.max(max, 1)).map { "\(lines[$0] ?? 0) " }.joined() + "\n"
            let counted = countedLines(file, hits: lines, inside: inside)
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

    /// Past this a source is counted by the lines that ran (a Lua file this large is data).
    static let sourceLimit = 16 << 20

    /// The lines luacov's reporter counts (`LuacovLines`), in order; without the source, the
    /// lines that ran. The source is named by a chunk name, any string a test gave `load`
    /// (`@/dev/zero`, a FIFO): it is read as a regular file of bounded size or not at all.
    static func countedLines(_ file: String, hits: [Int: Int], inside: String? = nil) -> [Int] {
        guard case .bytes(let source) = RegularFile.read(file, limit: sourceLimit, what: "a covered source", inside: inside) else {
            return hits.keys.filter { hits[$0]! > 0 }.sorted()
        }
        return LuacovLines.verdicts(in: source).enumerated().compactMap { index, verdict in
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
