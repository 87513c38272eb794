import Foundation

/// `--coverage`: line counts of the code under test from every file's run (workers included),
/// written as luacov's `luacov.stats.out` (luacov's reporters read it) and an lcov `lcov.info`
/// (genhtml renders it). lcov needs the lines that could run: those are read from the source,
/// as luacov's reporter does (see `ExecutableLines`); a line that ran is listed whatever it holds.
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

    /// Both formats name a file on a line of its own and have no escapes: a chunk name with a
    /// line break or another control character (`load(code, "@a\n3:b")`) names no file on disk
    /// and would forge records, so it is left out.
    static func representable(_ file: String) -> Bool {
        !file.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || LineBreaks.isBreak($0) }
    }

    static func write(_ data: [String: [Int: Int]], stats: String = "luacov.stats.out", lcov: String = "lcov.info") throws(ReplacingFile.Failure) {
        var statsText = ""
        var lcovText = ""
        for file in data.keys.sorted() {
            let lines = data[file] ?? [:]
            let max = lines.keys.max() ?? 0
            statsText += "\(max):\(file)\n" + (1...Swift.max(max, 1)).map { "\(lines[$0] ?? 0) " }.joined() + "\n"
            var candidates = Set(lines.keys)
            if let source = FileManager.default.contents(atPath: file) {
                candidates.formUnion(ExecutableLines.numbers(in: [UInt8](source)))
            }
            let sorted = candidates.sorted()
            lcovText += "TN:\nSF:\(file)\n" + sorted.map { "DA:\($0),\(lines[$0] ?? 0)\n" }.joined()
            lcovText += "LF:\(sorted.count)\nLH:\(sorted.filter { (lines[$0] ?? 0) > 0 }.count)\nend_of_record\n"
        }
        try ReplacingFile.write(statsText, to: stats)
        try ReplacingFile.write(lcovText, to: lcov)
    }
}

/// The lines of a Lua source that could run, judged as luacov's reporter judges them: not blank
/// lines, comments (a long comment's lines included), a long or continued string's inner lines,
/// a line that is only `end`, `else`, `do`, `then`, `repeat` or brackets, or a line that only
/// starts a string an assignment or `return` takes. Lua gives a string's code the line where the
/// string ends (as luacov counts it), so a line closing a string could run.
enum ExecutableLines {
    static let closers: Set<String> = ["end", "else", "do", "then", "}", ")", "{", "end)", "end,", "},", "})", "repeat", "end;"]

    /// 1-based line numbers. Lines end at `\n`; a `\r` before it (CRLF files) is whitespace.
    static func numbers(in source: [UInt8]) -> Set<Int> {
        var scanner = LuaLineScanner()
        var numbers = Set<Int>()
        for (index, bytes) in source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = scanner.scan(bytes)
            // Lua skips a first line starting with `#` (`#!/usr/bin/env lua`).
            if index == 0, bytes.first == UInt8(ascii: "#") { continue }
            if couldRun(line) { numbers.insert(index + 1) }
        }
        return numbers
    }

    static func couldRun(_ line: LuaLineScanner.Line) -> Bool {
        if line.startsInString { return line.closesString }
        let code = words(line.code)
        if code.isEmpty { return false }
        if let before = line.codeBeforeOpenString { return !holdsNoCode(words(before)) }
        return !closers.contains(code.replacingOccurrences(of: " ", with: ""))
    }

    /// The code before a string left open at the line's end holds no instruction of its own when
    /// it only names where the string goes: `local x = [[`, `t.doc = (`, `[k] = [[`, `return [[`.
    static func holdsNoCode(_ prefix: String) -> Bool {
        var text = Substring(prefix)
        while let last = text.last, last == "(" || last == " " { text = text.dropLast() }
        if text == "return" { return true }
        guard text.hasSuffix("="), !"=~<>".contains(text.dropLast().last ?? " ") else { return false }
        var target = text.dropLast().trimmingCharacters(in: .whitespaces)
        if target.hasPrefix("local ") { target = String(target.dropFirst(6)) }
        let allowed = CharacterSet(charactersIn: "_.:[]\", ").union(.alphanumerics)
        return !target.isEmpty && target.unicodeScalars.allSatisfy(allowed.contains)
    }

    /// The text with runs of whitespace (`\r` included) as one space, and none at either end.
    private static func words(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{0B}" || $0 == "\u{0C}" })
            .joined(separator: " ")
    }
}
