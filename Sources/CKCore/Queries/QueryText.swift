/// Reads a query's text into simple selectors, `>` and `/`: `Name`, `#id` parts, each bare (up
/// to a space, `>`, `/`, `#` or `[`) or quoted as `ScopeName` quotes (`"a b"`, `"x#y"`, `\"`, `\\`, `\ddd`),
/// then attributes (`[title="reset"]`) and `[N]`, the N-th of its siblings the rest matches
/// (`ScopeName` quotes a part holding `[`).
struct QueryText {
    /// `>` or `/` with its column (from 1), or a simple selector.
    enum Token { case child(Int), step(Int), simple(Query.Simple) }

    private let text: String
    private let s: [Unicode.Scalar]
    private var i = 0

    init(_ text: String) {
        self.text = text
        s = Array(text.unicodeScalars)
    }

    mutating func tokens() throws -> [Token] {
        var out: [Token] = []
        while i < s.count {
            switch s[i] {
            case " ", "\t": i += 1
            case ">": out.append(.child(i + 1)); i += 1
            case "/": out.append(.step(i + 1)); i += 1
            default: out.append(.simple(try simple()))
            }
        }
        return out
    }

    private mutating func simple() throws -> Query.Simple {
        let name = bare()
        var simple = Query.Simple(name: name.isEmpty || name == "*" ? nil : name)
        while i < s.count, s[i] == "#" {
            let hash = i + 1
            if simple.ids.count == 2 {
                throw Query.error(text, "the `#` at column \(hash) is a third id; a selector has at most two (Class#id#key)")
            }
            i += 1
            if i < s.count, s[i] == "\"" {
                simple.ids.append(.quoted(try quoted()))
            } else {
                let id = bare()
                guard !id.isEmpty else {
                    throw Query.error(text, "the `#` at column \(hash) needs an id after it (Row#3, Row#\"a b\")")
                }
                simple.ids.append(.text(id))
            }
        }
        // Every selector says what it matches: a name, `*` or an id. `[2]` alone was read as
        // `*[2]`, so a typo that lost the name tapped some other component (attack atk-mem 10).
        guard !name.isEmpty || !simple.ids.isEmpty else {
            throw Query.error(text, "the `[` at column \(i + 1) has nothing before it; write *[N] or *[title=\"text\"] for any class")
        }
        try brackets(of: &simple)
        // A selector ends at a space, `>`, `/` or the end: `Button[2]x` is no query.
        guard i == s.count || " \t>/".unicodeScalars.contains(s[i]) else {
            throw Query.error(text, "`\(Excerpt.text(String(s[i])))` at column \(i + 1) follows a whole selector; a selector ends at a space, `>`, `/` or the end")
        }
        return simple
    }

    /// Attributes (`[title="reset"]`), then at most one position (`[2]`, among the siblings the
    /// rest matches).
    private mutating func brackets(of simple: inout Query.Simple) throws {
        while i < s.count, s[i] == "[" {
            if simple.position != nil {
                throw Query.error(text, "the `[` at column \(i + 1) follows the position; write the attributes first, then the position (Button[title=\"ok\"][2])")
            }
            if i + 1 < s.count, ("0"..."9").contains(s[i + 1]) {
                simple.position = try position()
            } else {
                simple.attributes.append(try attribute())
            }
        }
    }

    /// `[name="text"]`: a prop or view attribute `name` whose value is the string `text`.
    private mutating func attribute() throws -> Query.Attribute {
        let open = i + 1
        i += 1
        var name = ""
        while i < s.count, s[i] == "_" || ("0"..."9").contains(s[i]) || ("a"..."z").contains(s[i]) || ("A"..."Z").contains(s[i]) {
            name.unicodeScalars.append(s[i])
            i += 1
        }
        guard !name.isEmpty, i < s.count, s[i] == "=" else {
            throw Query.error(text, "the `[` at column \(open) holds neither a position, a number from 1 ([2]), nor an attribute and its text in quotes ([title=\"reset\"])")
        }
        i += 1
        guard i < s.count, s[i] == "\"" else {
            throw Query.error(text, "the attribute `\(name)` at column \(open) needs its text in quotes ([\(name)=\"reset\"])")
        }
        let value = try quoted()
        guard i < s.count, s[i] == "]" else {
            throw Query.error(text, "the `[` at column \(open) is not closed by `]` after the quoted text")
        }
        i += 1
        return Query.Attribute(name: name, text: value)
    }

    /// `[N]`, N from 1 (digits only), the index past it.
    private mutating func position() throws -> Int {
        let open = i + 1
        i += 1
        var value = 0, digits = 0
        while i < s.count, ("0"..."9").contains(s[i]), digits < 9 {
            value = value * 10 + Int(s[i].value - 48)
            digits += 1
            i += 1
        }
        guard digits > 0 else { throw Query.error(text, "the `[` at column \(open) needs a position, a number from 1 ([2])") }
        guard i < s.count, s[i] == "]" else {
            throw Query.error(text, "the `[` at column \(open) is not closed by `]` after at most 9 digits")
        }
        guard value > 0 else { throw Query.error(text, "`[0]` at column \(open): positions count from 1 ([1] is the first)") }
        i += 1
        return value
    }

    private mutating func bare() -> String {
        var out = ""
        while i < s.count, !" \t>/#[".unicodeScalars.contains(s[i]) { out.unicodeScalars.append(s[i]); i += 1 }
        return out
    }

    /// From the opening quote to past the closing one: the string's bytes.
    private mutating func quoted() throws -> [UInt8] {
        var out: [UInt8] = []
        let open = i + 1
        i += 1
        while i < s.count, s[i] != "\"" {
            if s[i] == "\\", i + 1 < s.count {
                i += 1
                if let byte = decimalEscape() { out.append(byte); continue }
            }
            out.append(contentsOf: String(s[i]).utf8)
            i += 1
        }
        guard i < s.count else { throw Query.error(text, "the quote opened at column \(open) is not closed") }
        i += 1
        return out
    }

    /// `\ddd` (up to three digits, as `ScopeName` writes control bytes), the index past it.
    private mutating func decimalEscape() -> UInt8? {
        var value = 0, digits = 0
        while digits < 3, i < s.count, ("0"..."9").contains(s[i]) {
            value = value * 10 + Int(s[i].value - 48)
            digits += 1
            i += 1
        }
        return digits > 0 ? UInt8(min(value, 255)) : nil
    }
}
