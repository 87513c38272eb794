/// Reads a Lua source line by line for `--coverage`'s list of lines that could run, keeping
/// what one line leaves open for the next: a long comment `--[==[ … ]==]`, a long string
/// `[[ … ]]`, or a short string continued with `\`. Each line comes back as its code with the
/// comments left out and every string reduced to `""`, so a closing `]]` or an `end` inside a
/// string or comment is not mistaken for code.
struct LuaLineScanner {
    private enum Mode: Equatable {
        case code
        case longComment(level: Int)
        case longString(level: Int)
        case shortString(quote: UInt8)

        var isString: Bool {
            switch self {
            case .longString, .shortString: true
            case .code, .longComment: false
            }
        }
    }

    /// One line's code, and how it stands with the strings that cross line ends.
    struct Line {
        /// Outside comments; each string is `""`.
        var code: [UInt8] = []
        /// The line began inside a string (continued from the line before).
        var startsInString = false
        /// That string ended on this line.
        var closesString = false
        /// The line ends inside a string that began on it; `code` up to that string's start.
        var codeBeforeOpenString: [UInt8]?
    }

    private var mode = Mode.code

    mutating func scan(_ bytes: ArraySlice<UInt8>) -> Line {
        var line = Line(startsInString: mode.isString)
        var openedAt: Int?
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let wasString = mode.isString
            i = step(bytes, at: i, into: &line.code)
            if wasString, !mode.isString, openedAt == nil { line.closesString = true }
            if !wasString, mode.isString { openedAt = line.code.count - 1 }
            if wasString, !mode.isString { openedAt = nil }
        }
        if mode.isString, let openedAt { line.codeBeforeOpenString = Array(line.code[..<openedAt]) }
        return line
    }

    /// Consumes one token's worth of `bytes` from `i` in the current mode; returns where the next starts.
    private mutating func step(_ bytes: ArraySlice<UInt8>, at i: Int, into code: inout [UInt8]) -> Int {
        switch mode {
        case .longComment(let level), .longString(let level):
            guard let end = Self.longBracketClose(bytes, from: i, level: level) else { return bytes.endIndex }
            if mode.isString { code.append(UInt8(ascii: "\"")) }
            mode = .code
            return end
        case .shortString(let quote):
            return shortStringStep(bytes, at: i, quote: quote, into: &code)
        case .code:
            return codeStep(bytes, at: i, into: &code)
        }
    }

    private mutating func shortStringStep(_ bytes: ArraySlice<UInt8>, at i: Int, quote: UInt8, into code: inout [UInt8]) -> Int {
        // An escape takes the byte after it, so `\"` does not end the string; a `\` at the end
        // of the line continues the string on the next.
        if bytes[i] == UInt8(ascii: "\\") { return min(i + 2, bytes.endIndex) }
        if bytes[i] == quote {
            code.append(UInt8(ascii: "\""))
            mode = .code
        }
        return i + 1
    }

    private mutating func codeStep(_ bytes: ArraySlice<UInt8>, at i: Int, into code: inout [UInt8]) -> Int {
        let byte = bytes[i]
        if byte == UInt8(ascii: "-"), i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "-") {
            guard let (level, end) = Self.longBracketOpen(bytes, at: i + 2) else { return bytes.endIndex }
            mode = .longComment(level: level)
            return end
        }
        if let (level, end) = Self.longBracketOpen(bytes, at: i) {
            code.append(UInt8(ascii: "\""))
            mode = .longString(level: level)
            return end
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            code.append(UInt8(ascii: "\""))
            mode = .shortString(quote: byte)
            return i + 1
        }
        code.append(byte)
        return i + 1
    }

    /// `[`, `=` × level, `[` at `i`: the level and the index after it.
    private static func longBracketOpen(_ bytes: ArraySlice<UInt8>, at i: Int) -> (Int, Int)? {
        guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "[") else { return nil }
        var j = i + 1
        while j < bytes.endIndex, bytes[j] == UInt8(ascii: "=") { j += 1 }
        guard j < bytes.endIndex, bytes[j] == UInt8(ascii: "[") else { return nil }
        return (j - i - 1, j + 1)
    }

    /// The index after the first `]`, `=` × level, `]` from `i`, if the line has one.
    private static func longBracketClose(_ bytes: ArraySlice<UInt8>, from i: Int, level: Int) -> Int? {
        var j = i
        while j < bytes.endIndex {
            if bytes[j] == UInt8(ascii: "]") {
                var k = j + 1
                while k < bytes.endIndex, bytes[k] == UInt8(ascii: "="), k - j - 1 < level { k += 1 }
                if k - j - 1 == level, k < bytes.endIndex, bytes[k] == UInt8(ascii: "]") { return k + 1 }
            }
            j += 1
        }
        return nil
    }
}
