import CKCore

/// What an error says to a Swift program rather than to a `ckrun` user: every ``ScriptError``'s
/// message and traceback pass through here (attack lib 14, lib2 11). The library's host methods
/// are its own Lua glue, so errors pointed at `(CKRuntime glue):57:` and told the program to
/// "raise --timeout" or "make a new one with ck.host".
enum LibraryWording {
    static let glueChunk = "(CKRuntime glue)"

    /// Each remedy in the library's words: the one place a Swift program's wording of the
    /// messages the command line shares lives (a new ``Remedy`` case must say it here).
    static func library(_ remedy: Remedy) -> String {
        switch remedy {
        case .makeANewHost: "make a new host with runtime.mount"
        case .makeANewOne: "make a new one with runtime.mount"
        case .keepTheHost: "e.g. keep the ComponentHost that runtime.mount returned"
        case .raiseTheTimeout: "raise Configuration.timeout"
        case .raiseTheMemoryLimit: "raise Configuration.memoryLimitMegabytes"
        case .providerArgument: "mount's provider"
        }
    }

    /// The command line's remedies, said as the library says them.
    private static let replacements: [(String, String)] = Remedy.allCases.map { ($0.rawValue, library($0)) }

    /// A message in the library's words; a traceback Lua put inside it (a build's error carries
    /// the render's) is worded as ``traceback(_:)`` words one, and left out when nothing of it
    /// remains (`attempt to call a table value\nstack traceback:` said nothing more).
    static func message(_ text: String) -> String {
        var text = withoutGlueLocations(text)
        for (cli, library) in replacements where text.utf8.count >= cli.utf8.count {
            text = replacingEach(cli, in: text) { _ in (0, library) }
        }
        guard let start = firstTraceback(in: text) else { return text }
        let worded = traceback(String(text[text.index(after: start)...]))
        let head = String(text[..<start])
        return worded.isEmpty ? head : head + "\n" + worded
    }

    /// Where the first `\nstack traceback:` in `text` starts (its newline).
    private static func firstTraceback(in text: String) -> String.Index? {
        var i = text.startIndex
        while let newline = text[i...].firstIndex(of: "\n") {
            if text[text.index(after: newline)...].hasPrefix(tracebackHeader) { return newline }
            i = text.index(after: newline)
        }
        return nil
    }

    static let tracebackHeader = "stack traceback:"

    /// The traceback without the glue's frames and the C functions the glue called (`ck.host`
    /// for `runtime.mount`, `send` for a Swift send): the program called a method, not the
    /// glue. Empty when no frame remains.
    static func traceback(_ text: String) -> String {
        guard text.contains(glueChunk) || text.hasPrefix(tracebackHeader) else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        for (i, line) in lines.enumerated() where !line.contains(glueChunk) {
            let calledByGlue = line.hasPrefix("\t[C]:") && i + 1 < lines.count && lines[i + 1].contains(glueChunk)
            if !calledByGlue { kept.append(line) }
        }
        // A header whose frames were all the glue's says nothing (a build's error carries the
        // render's traceback, then the glue's own).
        let header = Substring(tracebackHeader)
        let worded = kept.indices.filter { i in
            kept[i] != header || (i + 1 < kept.count && kept[i + 1] != header && !kept[i + 1].isEmpty)
        }.map { kept[$0] }
        return worded.allSatisfy({ $0.isEmpty || $0 == header }) ? "" : worded.joined(separator: "\n")
    }

    /// `text` without each `(CKRuntime glue):LINE: `.
    private static func withoutGlueLocations(_ text: String) -> String {
        replacingEach(glueChunk + ":", in: text) { after in
            let digits = after.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            let rest = after.dropFirst(digits.count)
            guard !digits.isEmpty, rest.starts(with: ": ".utf8) else { return nil }
            return (digits.count + 2, "")
        }
    }

    /// `text` with each `needle` replaced (no Foundation, no Regex: both are newer than the
    /// platforms the library builds for). `replacement` sees the bytes after the needle and
    /// says how many more to drop and what goes in their place (nil: leave it as it is).
    private static func replacingEach(_ needle: String, in text: String,
                                      _ replacement: (ArraySlice<UInt8>) -> (extra: Int, with: String)?) -> String {
        let bytes = Array(text.utf8), pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count, !pattern.isEmpty else { return text }
        var out: [UInt8] = [], i = 0
        out.reserveCapacity(bytes.count)
        while i < bytes.count {
            if bytes[i] == pattern[0], bytes.count - i >= pattern.count, bytes[i..<i + pattern.count].elementsEqual(pattern),
               let (extra, with) = replacement(bytes[(i + pattern.count)...]) {
                out += with.utf8
                i += pattern.count + extra
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
