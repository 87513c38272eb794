/// How an error message shows a script's value: at most `limit` bytes of it, then `…` and its
/// length. A message is built in Swift, where `--memory-limit` does not reach: quoting a 24 MB
/// name in full held 4× its size (issue 24, B7). Every message that quotes a script's value
/// goes through here (`LuaState.quoted`, `LuaState.shown`; check-layout refuses the unbounded
/// conversions in a message).
public enum Excerpt {
    /// Bytes of a value a message shows.
    public static let limit = 200

    /// Bytes as a Lua literal: printable ASCII as is, `"`, `\` and other bytes as `\ddd`.
    public static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        var out = "\""
        for byte in bytes.prefix(limit) {
            if byte >= 32 && byte < 127 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "\\\(byte)"
            }
        }
        return out + "\"" + more(bytes.count)
    }

    /// Text of a script's (a name, a `tostring`): its first `limit` bytes, whole characters.
    public static func text(_ s: String) -> String {
        let (head, rest) = split(s)
        return head + rest
    }

    /// The first `limit` bytes of `s` (whole characters), and what says how long it was (or "").
    public static func split(_ s: String) -> (head: String, more: String) {
        guard s.utf8.count > limit else { return (s, "") }
        let utf8 = Array(s.utf8.prefix(limit + 1))
        var end = limit
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
        return (String(decoding: utf8[..<end], as: UTF8.self), more(s.utf8.count))
    }

    /// Text decoded from the first `limit` bytes.
    public static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.prefix(limit), as: UTF8.self) + more(bytes.count)
    }

    static func more(_ count: Int) -> String {
        count > limit ? "… (\(count) bytes)" : ""
    }
}
