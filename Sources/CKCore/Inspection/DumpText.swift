/// The text dump's one escaper (`host:dump()`, `.tree`, `ckrun tree`, snapshots): a value can
/// never start a line of its own or close its quotes, so two different trees never dump alike.
public enum DumpText {
    /// A script's string as the dump shows it: `"…"`, with `"` and `\` escaped, line breaks and
    /// other control characters as Lua escapes (`\n`, `\r`, `\t`, `\027`), bytes that are not
    /// UTF-8 as `\ddd`, and Unicode's line separators as `\u{2028}`; other text as it is.
    public static func quoted(_ bytes: some Collection<UInt8>) -> String {
        if let plain = plainText(bytes) { return "\"" + plain + "\"" }
        let b = Array(bytes)
        var out = "\""
        var i = 0
        while i < b.count {
            let c = b[i]
            if c < 0x80 {
                out += ascii(c)
                i += 1
                continue
            }
            let n = c >= 0xF5 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0
            if n > 0, i + n <= b.count, let s = String(validating: b[i..<(i + n)], as: UTF8.self) {
                out += separatorEscaped(s)
                i += n
            } else {
                out += decimal(c)
                i += 1
            }
        }
        return out + "\""
    }

    /// A string key as a Lua table constructor writes it, the one rule of the dump, `.tree`, the
    /// REPL's printing and `ckrun tree`: a name as it is (`title`), anything else, reserved
    /// words included, bracketed and quoted (`["a b"]`, `["end"]`, `["true"]`), so the string
    /// `"true"` and the boolean `true` never print alike.
    public static func key(_ bytes: some Collection<UInt8>) -> String {
        if let name = bytes.withContiguousStorageIfAvailable({ name($0) }) { return name ?? "[" + quoted(bytes) + "]" }
        if let first = bytes.first, !(0x30...0x39).contains(first), bytes.allSatisfy(isNameByte),
           case let name = String(decoding: bytes, as: UTF8.self), !reservedWords.contains(name) {
            return name
        }
        return "[" + quoted(bytes) + "]"
    }

    /// The key as a name when it is one: its bytes read in place (the live view lists every
    /// view's attributes each build).
    private static func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = bytes.first, !(0x30...0x39).contains(first) else { return nil }
        for b in bytes where !isNameByte(b) { return nil }
        let name = String(decoding: bytes, as: UTF8.self)
        // Reserved words are 2 to 8 bytes long.
        if (2...8).contains(bytes.count), reservedWords.contains(name) { return nil }
        return name
    }

    /// Lua 5.4's reserved words (llex.c), which are no names.
    public static let reservedWords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    private static func isNameByte(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "_") || (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
    }

    /// A whole dump line with its control characters and line separators escaped: what no quoted
    /// value guards (a `__tostring`'s result, a key, a label) cannot break the line either.
    public static func oneLine(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isBreaking) else { return line }
        var out = ""
        for scalar in line.unicodeScalars {
            if scalar.value < 0x80, isBreaking(scalar) { out += ascii(UInt8(scalar.value)) }
            else if isBreaking(scalar) { out += "\\u{\(String(scalar.value, radix: 16))}" }
            else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// The text itself when nothing in it needs escaping (the common case, in one pass).
    private static func plainText(_ bytes: some Collection<UInt8>) -> String? {
        var ascii = true
        for c in bytes {
            if c < 0x20 || c == 0x22 || c == 0x5C || c == 0x7F { return nil }
            if c >= 0x80 { ascii = false }
        }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self),
              !text.unicodeScalars.contains(where: isBreaking) else { return nil }
        return text
    }

    private static func isBreaking(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x7F || s.value == 0x85 || s.value == 0x2028 || s.value == 0x2029
    }

    private static func ascii(_ c: UInt8) -> String {
        switch c {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0..<0x20, 0x7F: return decimal(c)
        default: return String(Unicode.Scalar(c))
        }
    }

    private static func decimal(_ c: UInt8) -> String {
        let digits = String(c)
        return "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }

    private static func separatorEscaped(_ s: String) -> String {
        guard let scalar = s.unicodeScalars.first, isBreaking(scalar) else { return s }
        return "\\u{\(String(scalar.value, radix: 16))}"
    }
}
