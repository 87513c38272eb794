/// Checks a Lua pattern the way `string.find` parses it, so a bad `--filter` is a usage
/// error up front rather than a failure halfway through a run.
enum LuaPattern {
    /// nil if the pattern is well formed, else what is wrong with it.
    static func problem(in pattern: String) -> String? {
        let p = Array(pattern.utf8)
        var i = 0
        var open = 0, closed = 0
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "("):
                open += 1
                i += 1
            case UInt8(ascii: ")"):
                guard open > 0 else { return "invalid pattern capture (unmatched ')')" }
                open -= 1
                closed += 1
                i += 1
            case UInt8(ascii: "%"):
                guard i + 1 < p.count else { return "malformed pattern (ends with '%')" }
                let next = p[i + 1]
                if next == UInt8(ascii: "b") {
                    guard i + 3 < p.count else { return "malformed pattern (missing arguments to '%b')" }
                    i += 4
                } else if next == UInt8(ascii: "f") {
                    guard i + 2 < p.count, p[i + 2] == UInt8(ascii: "[") else { return "missing '[' after '%f' in pattern" }
                    guard let end = endOfSet(p, from: i + 2) else { return "malformed pattern (missing ']')" }
                    i = end
                } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(next) {
                    guard Int(next - UInt8(ascii: "0")) <= closed else { return "invalid capture index %\(Character(UnicodeScalar(next)))" }
                    i += 2
                } else {
                    i += 2
                }
            case UInt8(ascii: "["):
                guard let end = endOfSet(p, from: i) else { return "malformed pattern (missing ']')" }
                i = end
            default:
                i += 1
            }
        }
        return open > 0 ? "unfinished capture" : nil
    }

    /// The index after the `]` closing the set that starts at `start`, or nil.
    private static func endOfSet(_ p: [UInt8], from start: Int) -> Int? {
        var i = start + 1
        if i < p.count, p[i] == UInt8(ascii: "^") { i += 1 }
        var first = true
        while i < p.count {
            if p[i] == UInt8(ascii: "]"), !first { return i + 1 }
            if p[i] == UInt8(ascii: "%") { i += 1 }
            i += 1
            first = false
        }
        return nil
    }
}
