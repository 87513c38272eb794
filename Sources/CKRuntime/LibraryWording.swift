/// What an error says to a Swift program rather than to a `ckrun` user: every ``ScriptError``'s
/// message and traceback pass through here (attack lib 14, lib2 11). The library's host methods
/// are its own Lua glue, so errors pointed at `(CKRuntime glue):57:` and told the program to
/// "raise --timeout" or "make a new one with ck.host".
enum LibraryWording {
    static let glueChunk = "(CKRuntime glue)"

    /// The command line's remedies and the glue's places, said as the library says them.
    private static let replacements: [(String, String)] = [
        ("raise --memory-limit", "raise Configuration.memoryLimitMegabytes"),
        ("raise --timeout", "raise Configuration.timeout"),
        ("make a new one with ck.host", "make a new one with runtime.mount"),
        ("ck.host: argument #1 (provider)", "mount's provider"),
    ]

    static func message(_ text: String) -> String {
        var text = withoutGlueLocations(text)
        for (cli, library) in replacements where text.utf8.count >= cli.utf8.count {
            text = replacingEach(cli, in: text) { _ in (0, library) }
        }
        return text
    }

    /// The traceback without the glue's frames: the program called a method, not the glue.
    static func traceback(_ text: String) -> String {
        guard text.contains(glueChunk) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains(glueChunk) }
            .joined(separator: "\n")
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
