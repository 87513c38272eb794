/// DOT's one escaper: every string `ckrun tree --format dot` writes goes through it as a whole
/// quoted label (a key holding `"` or ending in `\` broke the graph).
enum DotText {
    /// Bytes of one quoted piece: Graphviz's scanner refuses a quoted string past 16,384 bytes
    /// (a 17 KB state made `--format dot` output `dot` could not read), so a longer label is
    /// written as pieces joined by DOT's `+`, which concatenates them.
    static let pieceLimit = 16_000

    /// Characters of a label's line: a longer one is wrapped, so a long state makes a tall box,
    /// not one wider than Graphviz lays out (65,535 points: a 17 KB string failed `dot -Tsvg`).
    static let wrapWidth = 100

    /// `lines` as one quoted DOT string, the lines joined (and wrapped) by dot's `\n`: `"a\nb"`, or
    /// `"…" + "…"` when longer than `pieceLimit`. An escape is never split between pieces.
    static func quoted(_ lines: [String]) -> String {
        var out = "\"", piece = 0
        func room(for bytes: Int) {
            if piece + bytes > pieceLimit {
                out += "\" + \""
                piece = 0
            }
            piece += bytes
        }
        for (i, line) in lines.enumerated() {
            if i > 0 { room(for: 2); out += "\\n" }
            var width = 0
            for scalar in line.unicodeScalars {
                if width == wrapWidth {
                    room(for: 2)
                    out += "\\n"
                    width = 0
                }
                width += 1
                if let escape = escaped(scalar) {
                    room(for: escape.utf8.count)
                    out += escape
                } else {
                    room(for: UTF8.width(scalar))
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Quotes and backslashes escaped, a newline as dot's `\n`, and other control characters
    /// (a NUL ends dot's parse) shown as `\xHH` text.
    /// Nil: the scalar as it is.
    private static func escaped(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\\\x" + (hex.count < 2 ? "0" : "") + hex
        default: return nil
        }
    }
}
