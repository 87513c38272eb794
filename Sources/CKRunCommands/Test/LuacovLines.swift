/// Which lines of a Lua source count for `--coverage`, decided as luacov's reporter decides
/// (luacov 0.15–0.17): each line is reduced to its *shape* and a shape is left out always (a
/// lone `end`, `local x`) or only when the line did not run (a table field, a function header,
/// a lone name: code that leaves no trace in Lua's line hook though it ran). A shape keeps
/// punctuation and keywords; a name is `x`, a number `0`, `nil`/`true`/`false` are `n`/`t`/`f`,
/// a string's start and end are each `'`, a function's parameter list is dropped (across lines
/// too), and each run of whitespace is one space.
enum LuacovLines {
    struct Verdict: Equatable {
        var alwaysLeftOut = false
        var leftOutUnlessRun = false

        func counts(hits: Int) -> Bool { !alwaysLeftOut && (!leftOutUnlessRun || hits > 0) }
    }

    /// One verdict per line (lines end at `\n`).
    static func verdicts(in source: [UInt8]) -> [Verdict] {
        var strings = LuaLineScanner()
        var shapes = ShapeScanner()
        var verdicts: [Verdict] = []
        for (index, bytes) in source.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let code = strings.scan(bytes).code
            if index == 0, bytes.starts(with: "#!".utf8) {
                verdicts.append(Verdict(alwaysLeftOut: true, leftOutUnlessRun: true))
                continue
            }
            let shape = shapes.shape(of: code)
            verdicts.append(Verdict(alwaysLeftOut: alwaysLeftOut.contains { $0.matches(shape) },
                                    leftOutUnlessRun: leftOutUnlessRun.contains { $0.matches(shape) }))
        }
        return verdicts
    }

    // The shapes, as Lua patterns matched against the whole shape (spaces around it allowed).
    // `=`, `(` and `)` may have a space on either side.
    private static let name = "x ?[%[%.]? ?[ntfx0']* ?%]?"       // a name, indexed at most once
    private static let names = "x ?, ?x[x, ]*"                  // two names or more
    private static let field = "%[? ?[ntfx0']+ ?%]?"            // a field's key: `k`, `[1]`, `["k"]`
    private static let parens = "[ %(]*"                        // opening brackets, if any
    private static let eq = " ?= ?", open = " ?%( ?"

    private static func shapes(_ list: [String]) -> [LuaPatternMatcher] {
        list.map { LuaPatternMatcher("^ *" + $0 + " *$")! }
    }

    /// Code that makes no instruction of its own, or only ones Lua gives another line.
    static let alwaysLeftOut = shapes([
        "", "end[,; %)]*", "else", "repeat", "do", "if", "then", "while t do", "if t then",
        "local x", "local x" + eq, "local " + names, "local " + names + eq, "local function x",
    ])

    /// Code that may run without Lua reporting its line (the instruction is on another line).
    static let leftOutUnlessRun = shapes([
        "[ntfx0',= ]+,", "{ ?} ?,", field + eq + ".+[,;]", field + eq + "function", field + eq + parens + "'",
        "return function", "function", "[ntfx0]", "''", "{ ?}", name,
        "local x" + eq + "function", "local x" + eq + parens + "'", "local x" + eq + open + parens,
        "local " + names + eq + open + parens, "local x" + eq + "n",
        name + eq + parens + "'", name + eq + "function",
        "} ?,", "} ?, ?function", "break", "{", "}?[ %)]*", "[ntf0']+ ?}[ %)]*", "goto [%w_]+", "::[%w_]+::",
    ])
}

/// Reduces lines of code (strings already `""`, comments gone: `LuaLineScanner`) to shapes,
/// keeping a function's parameter list open from one line to the next.
struct ShapeScanner {
    private var afterFunction = false
    private var inParameters = false
    private static let literals: [String: String] = ["nil": "n", "true": "t", "false": "f"]
    private static let keywords: Set<String> = ["and", "break", "do", "else", "elseif", "end", "for", "function", "goto",
                                                "if", "in", "local", "not", "or", "repeat", "return", "then", "until", "while"]

    mutating func shape(of code: [UInt8]) -> String {
        var shape: [UInt8] = []
        var i = 0
        while i < code.count {
            if inParameters {
                guard let close = code[i...].firstIndex(of: UInt8(ascii: ")")) else { break }
                inParameters = false
                i = close + 1
                continue
            }
            i = token(code, at: i, into: &shape)
        }
        return String(decoding: shape, as: UTF8.self)
    }

    /// Appends the shape of the token at `i`; returns where the next starts.
    private mutating func token(_ code: [UInt8], at start: Int, into shape: inout [UInt8]) -> Int {
        var i = start
        while i < code.count, Self.isSpace(code[i]) { i += 1 }
        if i > start { shape.append(UInt8(ascii: " ")) }
        guard i < code.count else { return i }
        let byte = code[i]
        if byte == UInt8(ascii: "."), i + 1 < code.count, Self.isDigit(code[i + 1]) { i += 1 }
        if Self.isDigit(code[i]) { return number(code, at: i, into: &shape) }
        if Self.isNameStart(byte) { return name(code, at: i, into: &shape) }
        switch byte {
        case UInt8(ascii: "\""): shape.append(UInt8(ascii: "'"))
        case UInt8(ascii: "."):
            var j = i
            while j < code.count, code[j] == UInt8(ascii: ".") { j += 1 }
            shape += code[i..<j]
            return j
        case UInt8(ascii: "(") where afterFunction:
            afterFunction = false
            inParameters = true
        default: shape.append(byte)
        }
        return i + 1
    }

    private func number(_ code: [UInt8], at start: Int, into shape: inout [UInt8]) -> Int {
        var i = start
        if i + 1 < code.count, code[i] == UInt8(ascii: "0"), code[i + 1] | 0x20 == UInt8(ascii: "x") { i += 2 }
        func digits() { while i < code.count, Self.isHexDigit(code[i]) || code[i] == UInt8(ascii: ".") { i += 1 } }
        digits()
        if i + 1 < code.count, "eEpP".utf8.contains(code[i]), "+-".utf8.contains(code[i + 1]) {
            i += 2
            digits()
        }
        while i < code.count, "iul".utf8.contains(code[i]) { i += 1 }   // LuaJIT's suffixes
        shape.append(UInt8(ascii: "0"))
        return i
    }

    private mutating func name(_ code: [UInt8], at start: Int, into shape: inout [UInt8]) -> Int {
        var i = start
        while i < code.count, Self.isNameStart(code[i]) || Self.isDigit(code[i]) { i += 1 }
        let word = String(decoding: code[start..<i], as: UTF8.self)
        shape += (Self.literals[word] ?? (Self.keywords.contains(word) ? word : "x")).utf8
        if word == "function" { afterFunction = true }
        return i
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
    private static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
    private static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (0x61...0x66).contains(b | 0x20) }
    private static func isNameStart(_ b: UInt8) -> Bool { b == 0x5F || (0x61...0x7A).contains(b | 0x20) }
}
