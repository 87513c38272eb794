import ArgumentParser
import Foundation

/// `--shard I/N`: shards split the tests, not the files. Every file is loaded in every shard;
/// a test belongs to shard `(fileIndex + hash) % N + 1`, where `fileIndex` is its file's place in
/// sorted order and `hash` a hash of its full name (FNV-1a, computed where the test registers,
/// in spec.lua): the same in every process whatever order a file registers its tests in, so the
/// N shards partition the selected tests exactly. A file that fails to load is reported by the
/// shard of hash 0.
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

    func includes(fileIndex: Int, nameHash: Int) -> Bool {
        (fileIndex + nameHash) % count == index - 1
    }

    var description: String { "\(index)/\(count)" }
}

/// `--shard-timings FILE`: with a JUnit report of an earlier run, shards take whole files,
/// balanced by those files' durations (longest first, each to the shard with the least time
/// so far), so shards finish together. A file the report does not name counts as the average;
/// with no report (a CI's first run) every file weighs the same, so shards split them by count.
enum ShardTimings {
    /// Seconds per file (keyed by `key(_:)`), and a note when the report gave none.
    struct Report {
        var seconds: [String: Double] = [:]
        var note: String?
    }

    /// Seconds per file: each `<testsuite name="FILE" time="S">`, or for files no suite names,
    /// the sum of their `<testcase file="FILE" time="S">` (busted's `classname="FILE:LINE"`).
    /// Several reports concatenated (one per shard) read as one.
    static func read(_ path: String) -> Report {
        guard let data = FileManager.default.contents(atPath: path) else {
            let problem = FileManager.default.fileExists(atPath: path) ? "cannot read \(path)" : "\(path) does not exist yet"
            return Report(note: "--shard-timings: \(problem); shards take whole files, balanced by count")
        }
        var suites: [String: Double] = [:]
        var cases: [String: Double] = [:]
        for tag in tags(in: String(decoding: data, as: UTF8.self)) {
            guard let time = tag.attributes["time"].flatMap(Double.init) else { continue }
            if tag.name == "testsuite", let name = tag.attributes["name"] {
                suites[key(name), default: 0] += time
            } else if tag.name == "testcase", let file = tag.attributes["file"] ?? busted(tag.attributes["classname"]) {
                cases[key(file), default: 0] += time
            }
        }
        let seconds = cases.merging(suites) { _, suite in suite }
        guard seconds.isEmpty else { return Report(seconds: seconds) }
        return Report(note: "--shard-timings: \(path) is not a JUnit report (no <testsuite> or <testcase> with a time); shards take whole files, balanced by count")
    }

    /// One spelling per file, so `./spec/a_spec.lua`, `spec/a_spec.lua` and its absolute path
    /// (from the working directory) find the same time.
    static func key(_ path: String) -> String {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL.path
    }

    /// The files of `shard`, in their original order.
    static func files(_ files: [String], shard: Shard, times: [String: Double]) -> [String] {
        let weights = files.map { times[key($0)] }
        let known = weights.compactMap { $0 }
        let average = known.isEmpty ? 1 : known.reduce(0, +) / Double(known.count)
        let longestFirst = weights.map { $0 ?? average }.enumerated().sorted { a, b in
            a.element != b.element ? a.element > b.element : a.offset < b.offset
        }
        var load = [Double](repeating: 0, count: shard.count)
        var mine = Set<Int>()
        for (offset, weight) in longestFirst {
            let target = load.indices.min { load[$0] < load[$1] } ?? 0
            load[target] += weight
            if target == shard.index - 1 { mine.insert(offset) }
        }
        return files.enumerated().filter { mine.contains($0.offset) }.map(\.element)
    }

    /// busted's JUnit `classname`: `FILE:LINE`.
    private static func busted(_ classname: String?) -> String? {
        guard let classname, let colon = classname.lastIndex(of: ":"), Int(classname[classname.index(after: colon)...]) != nil else { return nil }
        return String(classname[..<colon])
    }

    /// The `<testsuite …>` and `<testcase …>` start tags of an XML text, with their attributes
    /// (entities decoded). A reader of these two tags only, which is all the timings need.
    private static func tags(in xml: String) -> [(name: String, attributes: [String: String])] {
        guard let tag = try? NSRegularExpression(pattern: #"<(testsuite|testcase)(\s[^>]*)?>"#),
              let attribute = try? NSRegularExpression(pattern: #"([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')"#) else { return [] }
        let text = xml as NSString
        return tag.matches(in: xml, range: NSRange(location: 0, length: text.length)).map { match in
            let body = match.range(at: 2).location == NSNotFound ? "" : text.substring(with: match.range(at: 2))
            var attributes: [String: String] = [:]
            for pair in attribute.matches(in: body, range: NSRange(location: 0, length: (body as NSString).length)) {
                let valueRange = pair.range(at: 2).location != NSNotFound ? pair.range(at: 2) : pair.range(at: 3)
                let name = (body as NSString).substring(with: pair.range(at: 1))
                attributes[name] = decodeEntities((body as NSString).substring(with: valueRange))
            }
            return (text.substring(with: match.range(at: 1)), attributes)
        }
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")]
            .reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }
}
