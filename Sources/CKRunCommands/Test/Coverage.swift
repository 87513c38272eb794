import Foundation

/// `--coverage`: line counts of the code under test from every file's run (workers included),
/// written as luacov's `luacov.stats.out` (luacov's reporters read it) and an lcov `lcov.info`
/// (genhtml renders it). lcov needs the lines that could run: those are read from the source,
/// as luacov's reporter does, by skipping blank lines, comments and lines that are only `end`,
/// `else`, `do`, `then`, brackets or `local function` headers' closing parts.
enum CoverageReport {
    static func merge(_ results: [FileResult]) -> [String: [Int: Int]] {
        var all: [String: [Int: Int]] = [:]
        for result in results {
            for (file, lines) in result.coverage ?? [:] {
                for (line, hits) in lines { if let n = Int(line) { all[file, default: [:]][n, default: 0] += hits } }
            }
        }
        return all
    }

    static func write(_ data: [String: [Int: Int]], stats: String = "luacov.stats.out", lcov: String = "lcov.info") throws {
        var statsText = ""
        var lcovText = ""
        for file in data.keys.sorted() {
            let lines = data[file] ?? [:]
            let max = lines.keys.max() ?? 0
            statsText += "\(max):\(file)\n" + (1...Swift.max(max, 1)).map { "\(lines[$0] ?? 0) " }.joined() + "\n"
            var candidates = Set(lines.keys)
            if let source = try? String(contentsOfFile: file, encoding: .utf8) {
                for (index, text) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where isExecutable(text) { candidates.insert(index + 1) }
            }
            let sorted = candidates.sorted()
            lcovText += "TN:\nSF:\(file)\n" + sorted.map { "DA:\($0),\(lines[$0] ?? 0)\n" }.joined()
            lcovText += "LF:\(sorted.count)\nLH:\(sorted.filter { (lines[$0] ?? 0) > 0 }.count)\nend_of_record\n"
        }
        try Data(statsText.utf8).write(to: URL(fileURLWithPath: stats))
        try Data(lcovText.utf8).write(to: URL(fileURLWithPath: lcov))
    }

    static func isExecutable(_ line: Substring) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("--") { return false }
        let closers: Set<String> = ["end", "else", "do", "then", "}", ")", "{", "end)", "end,", "},", "})", "repeat", "end;"]
        return !closers.contains(text)
    }
}
