import ArgumentParser
import Foundation

/// `--shard I/N`: shards split the tests, not the files. Every file is loaded in every shard;
/// the test at `position` among its file's selected tests (declaration order, before any
/// shuffle) of the file at `fileIndex` (sorted order) belongs to shard
/// `(fileIndex + position) % N + 1`. So the N shards partition the selected tests exactly,
/// and starting each file at a different shard keeps many small files balanced.
struct Shard: Sendable, Equatable, CustomStringConvertible {
    let index: Int
    let count: Int

    init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    func includes(fileIndex: Int, position: Int) -> Bool {
        (fileIndex + position) % count == index - 1
    }

    var description: String { "\(index)/\(count)" }
}

/// `--shard-timings FILE`: with a JUnit report of an earlier run, shards take whole files,
/// balanced by those files' durations (longest first, each to the shard with the least time
/// so far), so shards finish together. A file the report does not name counts as the average.
enum ShardTimings {
    /// Seconds per file: each `<testsuite name="FILE" ... time="S">` of the report.
    static func read(_ path: String) throws -> [String: Double] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--shard-timings: cannot read \(path)")
        }
        let xml = String(decoding: data, as: UTF8.self)
        var times: [String: Double] = [:]
        let pattern = try? NSRegularExpression(pattern: #"<testsuite\s+name="([^"]*)"[^>]*\stime="([0-9.]+)""#)
        let text = xml as NSString
        for match in pattern?.matches(in: xml, range: NSRange(location: 0, length: text.length)) ?? [] {
            let name = text.substring(with: match.range(at: 1)).replacingOccurrences(of: "&amp;", with: "&")
            times[name, default: 0] += Double(text.substring(with: match.range(at: 2))) ?? 0
        }
        return times
    }

    /// The files of `shard`, in their original order.
    static func files(_ files: [String], shard: Shard, times: [String: Double]) -> [String] {
        let known = files.compactMap { times[$0] }
        let average = known.isEmpty ? 1 : known.reduce(0, +) / Double(known.count)
        let longestFirst = files.enumerated().sorted { a, b in
            let (ta, tb) = (times[a.element] ?? average, times[b.element] ?? average)
            return ta != tb ? ta > tb : a.offset < b.offset
        }
        var load = [Double](repeating: 0, count: shard.count)
        var mine = Set<Int>()
        for (offset, file) in longestFirst {
            let target = load.indices.min { load[$0] < load[$1] } ?? 0
            load[target] += times[file] ?? average
            if target == shard.index - 1 { mine.insert(offset) }
        }
        return files.enumerated().filter { mine.contains($0.offset) }.map(\.element)
    }
}
