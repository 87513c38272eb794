import CKCore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--shard I/N`: shards split the tests, not the files. Every file is loaded in every shard;
/// a test belongs to shard `(fileIndex + hash) % N + 1`, where `fileIndex` is its file's place in
/// sorted order and `hash` a hash of its full name (FNV-1a, computed where the test registers,
/// in Prelude/language.lua): the same in every process whatever order a file registers its tests in, so the
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
    /// Past this a timings file is no JUnit report of a test run (a device, a log).
    static let timingsLimit = 256 << 20

    static func read(_ path: String) -> Report {
        let data: [UInt8]
        switch RegularFile.read(path, limit: timingsLimit, what: "the timings report") {
        case .bytes(let bytes): data = bytes
        case .missing: return Report(note: "--shard-timings: \(BytePath.shown(path)) does not exist yet; shards take whole files, balanced by count")
        case .refused(let problem): return Report(note: "--shard-timings: \(problem); shards take whole files, balanced by count")
        }
        var suites: [String: Double] = [:]
        var cases: [String: Double] = [:]
        for tag in tags(in: data) {
            guard let time = tag.attributes["time"].flatMap(Double.init) else { continue }
            if tag.name == "testsuite", let name = tag.attributes["name"] {
                suites[key(name), default: 0] += time
            } else if tag.name == "testcase", let file = tag.attributes["file"] ?? busted(tag.attributes["classname"]) {
                cases[key(file), default: 0] += time
            }
        }
        let seconds = cases.merging(suites) { _, suite in suite }
        guard seconds.isEmpty else { return Report(seconds: seconds) }
        return Report(note: "--shard-timings: \(BytePath.shown(path)) is not a JUnit report (no <testsuite> or <testcase> with a time); shards take whole files, balanced by count")
    }

    /// One spelling per file, so `./spec/a_spec.lua`, `spec/a_spec.lua` and its absolute path
    /// (from the working directory) find the same time.
    static func key(_ path: String) -> String {
        let base = URL(fileURLWithPath: BytePath.currentDirectory(), isDirectory: true)
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
    /// (entities decoded). A reader of these two tags only, which is all the timings need, in one
    /// pass over the bytes: a tag runs to the first `>` after it (a regular expression tried
    /// again at every `<testcase` of a text without one took 65 s for 220 KB).
    static func tags(in xml: [UInt8]) -> [(name: String, attributes: [String: String])] {
        var found: [(name: String, attributes: [String: String])] = []
        var i = 0
        while let open = xml[i...].firstIndex(of: UInt8(ascii: "<")) {
            i = open + 1
            guard let name = ["testsuite", "testcase"].first(where: { startsTag(xml, at: i, $0) }) else { continue }
            guard let close = xml[i...].firstIndex(of: UInt8(ascii: ">")) else { break }   // no tag ends after this
            found.append((name, attributes(xml[(i + name.utf8.count)..<close])))
            i = close + 1
        }
        return found
    }

    /// `name` at `i`, then a blank or the tag's end.
    private static func startsTag(_ xml: [UInt8], at i: Int, _ name: String) -> Bool {
        let n = name.utf8.count
        guard xml.count >= i + n, xml[i..<(i + n)].elementsEqual(name.utf8) else { return false }
        return i + n == xml.count || [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">")].contains(xml[i + n])
    }

    /// `name="value"` and `name='value'` pairs of a tag's body, in one pass: a quote that no
    /// later quote closes ends the reading (no pair can follow it).
    private static func attributes(_ body: ArraySlice<UInt8>) -> [String: String] {
        var attributes: [String: String] = [:]
        let isName = { (c: UInt8) in c == 0x3A || c == 0x2E || c == 0x2D || c == 0x5F || (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) }
        let isBlank = { (c: UInt8) in c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        var i = body.startIndex
        while i < body.endIndex {
            guard isName(body[i]) else { i += 1; continue }
            let nameStart = i
            while i < body.endIndex, isName(body[i]) { i += 1 }
            let name = String(decoding: body[nameStart..<i], as: UTF8.self)
            var j = i
            while j < body.endIndex, isBlank(body[j]) { j += 1 }
            guard j < body.endIndex, body[j] == UInt8(ascii: "=") else { continue }
            j += 1
            while j < body.endIndex, isBlank(body[j]) { j += 1 }
            guard j < body.endIndex, body[j] == 0x22 || body[j] == 0x27 else { i = j; continue }
            guard let end = body[(j + 1)...].firstIndex(of: body[j]) else { break }
            attributes[name] = decodeEntities(String(decoding: body[(j + 1)..<end], as: UTF8.self))
            i = end + 1
        }
        return attributes
    }

    private static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")]
            .reduce(text) { $0.replacingAll($1.0, with: $1.1) }
    }
}
