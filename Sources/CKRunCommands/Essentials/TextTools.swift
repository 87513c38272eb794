#if canImport(Glibc)
import Glibc
#endif

/// What ckrun used from full Foundation's string extensions (FoundationEssentials has none of
/// these; see `OutputDescriptor`), with the same results on the text ckrun gives them.
extension StringProtocol {
    /// Without leading and trailing blanks: tab and Unicode's space separators (Zs), the set
    /// Foundation's `trimmingBlanks()` trims.
    func trimmingBlanks() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isBlank($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !Self.isBlank($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Without trailing white space (`\s`: blanks, line breaks, vertical tab, form feed).
    func trimmingTrailingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[...last]))
    }

    /// Every occurrence of `target` replaced, left to right, matched scalar for scalar: for the
    /// targets ckrun replaces (whole characters, no combining marks) what Foundation's
    /// `replacingOccurrences(of:with:)` gave ("\n" is found inside "\r\n").
    func replacingAll(_ target: String, with replacement: String) -> String {
        let text = Array(unicodeScalars), find = Array(target.unicodeScalars)
        guard !find.isEmpty, text.count >= find.count else { return String(self) }
        var out = String.UnicodeScalarView(), i = 0
        while i < text.count {
            if text[i] == find[0], i + find.count <= text.count, text[i..<(i + find.count)].elementsEqual(find) {
                out.append(contentsOf: replacement.unicodeScalars)
                i += find.count
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return String(out)
    }

    /// Padded with spaces, or cut, to `width` characters (help tables: ASCII option names).
    func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }

    /// What follows the last "/" (a trailing "/" ignored), as `NSString.lastPathComponent`.
    var lastPathComponent: String {
        let parts = split(separator: "/")
        return parts.last.map { String($0) } ?? (hasPrefix("/") ? "/" : "")
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }
}

/// `value` with `digits` digits after the point, rounded as printf's `%.Nf` (what
/// `String(format: "%.2f", …)` gave).
func fixedPoint(_ value: Double, digits: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let written = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(digits)f", $0) }
    guard written >= 0, written < buffer.count else { return "\(value)" }
    return String(cString: buffer)
}
