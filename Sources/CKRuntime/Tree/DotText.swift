/// DOT's one escaper: every string `ckrun tree --format dot` writes into a quoted label goes
/// through it (a key holding `"` or ending in `\` broke the graph).
enum DotText {
    /// Quotes and backslashes escaped, a newline as dot's `\n`, and other control characters
    /// (a NUL ends dot's parse) shown as `\xHH` text.
    static func escaped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\\\x" + (hex.count < 2 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
