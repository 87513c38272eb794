/// The one notation that names a component or scope in paths, dumps, `ckrun tree`'s formats and
/// messages (docs/api.md, *Names of components*): `Row`, `Row#3` (the identifier, else the key),
/// `Row#id#3` (identifier and key), then `[2]` for the second sibling of one identity.
enum ScopeName {
    static func label(_ className: String, identifier: Value, key: Value, ordinal: Int = 0) -> String {
        var out = Excerpt.text(className)
        if let id = part(identifier) { out += "#" + id }
        if let k = part(key) { out += "#" + k }
        if ordinal > 0 { out += "[\(ordinal + 1)]" }
        return out
    }

    /// A value as a name part: an integer `3`, a float `2.5` or `3.0`, a string as it is unless
    /// it would read as something else (`"1"`, `"true"`, `""`, `"a#b"`: quoted), other values
    /// as `<table>`; at most `Excerpt.limit` bytes of it. Nil: no part.
    static func part(_ v: Value) -> String? {
        switch v {
        case .nil: nil
        case .string(let s): needsQuotes(s) ? quoted(s) : Excerpt.text(s)
        case .int(let i): String(i)
        case .number(let d): NumberText.text(d)
        case .bool(let b): String(b)
        case .opaque(let r) where r.typeName == "string": carriedString(r)
        default: "<\(v.typeName)>"
        }
    }

    /// A string the core carries as the script's (long, or not UTF-8: `"caf\233"`): as `part`
    /// names a string, bytes that are not UTF-8 as `\ddd`, so two ids never print alike and
    /// the query written as it prints finds it (attack atk-repl 13).
    private static func carriedString(_ r: ScriptRef) -> String {
        guard let (head, count) = r.stringBytes(upTo: Excerpt.limit + 4) else { return "<string>" }
        if count <= head.count, let s = String(validating: head, as: UTF8.self) { return part(.string(s)) ?? "\"\"" }
        var end = min(head.count, Excerpt.limit)
        while end > 0, end < head.count, head[end] & 0xC0 == 0x80 { end -= 1 }  // not inside a character
        var out = "\""
        var i = 0
        while i < end {
            let c = head[i]
            let n = c >= 0xF5 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : c < 0x80 ? 1 : 0
            if n > 1, i + n <= end, let s = String(validating: head[i..<(i + n)], as: UTF8.self) {
                out += s
                i += n
                continue
            }
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += "\\" + String(Unicode.Scalar(c))
            case 32..<127: out.unicodeScalars.append(Unicode.Scalar(c))
            default: out += "\\" + String(repeating: "0", count: c < 10 ? 2 : c < 100 ? 1 : 0) + String(c)
            }
            i += 1
        }
        return out + "\"" + (count > end ? Excerpt.more(count) : "")
    }

    /// Whether `s` shown bare would read as a number, a boolean, nil or another value's part,
    /// or would break the notation or a query written in it (`#`, `/`, `[`, quotes, control
    /// bytes, spaces, `>`).
    static func needsQuotes(_ s: String) -> Bool {
        guard let first = s.utf8.first, let last = s.utf8.last else { return true }
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") || first == UInt8(ascii: "<") { return true }
        if s == "true" || s == "false" || s == "nil" { return true }
        if s.utf8.count < 64, Double(s) != nil { return true }
        return s.utf8.contains { b in b < 32 || b == 127 || specials.contains(b) }
    }

    private static let specials: [UInt8] = ["#", "/", "[", "\"", "\\", " ", ">"].map { UInt8(ascii: $0) }

    /// `"1"`, `"a\"b"`: quotes and backslashes escaped, control bytes as `\ddd`, the length
    /// after the quotes when cut.
    private static func quoted(_ s: String) -> String {
        let (head, more) = Excerpt.split(s)
        var out = "\""
        for scalar in head.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            // Three digits: `\0091` would read back as `\91` and a "1" (a query reads up to three).
            case _ where scalar.value < 32 || scalar.value == 127:
                out += "\\" + String(repeating: "0", count: scalar.value < 10 ? 2 : scalar.value < 100 ? 1 : 0) + String(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\"" + more
    }
}

extension ScopeName {
    /// Names a message shows of a path: the outermost two and the nearest eight.
    static let shownNear = 8, shownFar = 2

    /// A path as a message shows it, outermost first, from `node` up through `parent`: whole
    /// when it has at most ten names, else `A/B/… 99,990 more …/S/T/…/Z`. A message stays small
    /// at any depth (DESIGN rule 16; a million-deep render's `[buildFailed]` quoted 9 MB) and is
    /// made in time proportional to the depth, with ten labels.
    static func shownPath<Node>(from node: Node, parent: (Node) -> Node?, label: (Node) -> String) -> String {
        var near: [Node] = [], far: [Node] = [], count = 0
        var next: Node? = node
        while let n = next {
            if near.count < shownNear { near.append(n) } else { far.append(n); if far.count > shownFar { far.removeFirst() } }
            count += 1
            next = parent(n)
        }
        let skipped = count - near.count - far.count
        let middle = skipped > 0 ? ["… \(skipped) more …"] : []
        return (far.reversed().map(label) + middle + near.reversed().map(label)).joined(separator: "/")
    }
}
