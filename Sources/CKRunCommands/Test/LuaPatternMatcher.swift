/// `string.find(text, pattern) ~= nil` for busted's `--pattern` and `--exclude-pattern`, linear by
/// construction: Lua's matcher backtracks (`a?a?…aaa` takes exponential time, inside a C function
/// no time limit stops), this one fills a table of (pattern item, text position) once, as lstrlib.c
/// decides each item (C-locale classes, sets, `* + - ?`, `^`, `$`, `%b`, `%f`; captures match as
/// their contents do). Back-references (`%1`) are not supported (a file name never needs one).
struct LuaPatternMatcher {
    private enum Quantifier { case one, star, plus, optional }
    private enum Item {
        case single(ClassSpec, Quantifier)
        case balance(UInt8, UInt8)
        case frontier(ClassSpec)
        case end
    }
    /// One character class: a literal, `.`, `%x`, or a set `[...]` (the pattern's bytes from `[` to `]`).
    private struct ClassSpec {
        let bytes: ArraySlice<UInt8>
    }

    private let items: [Item]
    private let anchored: Bool

    /// nil when the pattern is malformed or has a back-reference (`problem` says why).
    init?(_ pattern: String) {
        let p = Array(pattern.utf8)
        if !Self.hasSpecials(p) {   // as string.find: a plain search
            (items, anchored) = (p.map { .single(ClassSpec(bytes: [$0]), .one) }, false)
            return
        }
        guard Self.problem(in: pattern) == nil, let parsed = Self.parse(p) else { return nil }
        (items, anchored) = parsed
    }

    /// lstrlib.c's SPECIALS: a pattern with none of them is a plain substring.
    private static func hasSpecials(_ p: [UInt8]) -> Bool { p.contains { "^$*+?.([%-".utf8.contains($0) } }

    static func problem(in pattern: String) -> String? {
        if !hasSpecials(Array(pattern.utf8)) { return nil }
        if let problem = LuaPattern.problem(in: pattern) { return problem }
        if parse(Array(pattern.utf8)) == nil { return "back-references (%1 to %9) are not supported in file patterns" }
        return nil
    }

    func matches(_ text: String) -> Bool {
        let s = Array(text.utf8)
        var next = [Bool](repeating: true, count: s.count + 1)   // the empty rest matches anywhere
        for item in items.reversed() { next = row(item, s, next) }
        return anchored ? next[0] : next.contains(true)
    }

    /// Where `item` followed by the rest (`rest[i]`: the rest matches from i) matches from each i.
    private func row(_ item: Item, _ s: [UInt8], _ rest: [Bool]) -> [Bool] {
        let n = s.count
        var here = [Bool](repeating: false, count: n + 1)
        switch item {
        case .end:
            here[n] = rest[n]
        case .frontier(let set):
            for i in 0...n {
                let before = i == 0 ? 0 : s[i - 1], at = i < n ? s[i] : 0
                here[i] = !Self.matches(before, set) && Self.matches(at, set) && rest[i]
            }
        case .balance(let open, let close):
            for i in 0..<n { if let j = Self.balanceEnd(s, from: i, open, close) { here[i] = rest[j] } }
        case .single(let spec, let quantifier):
            let fits = { (i: Int) in i < n && Self.matches(s[i], spec) }
            switch quantifier {
            case .one: for i in 0..<n { here[i] = fits(i) && rest[i + 1] }
            case .optional: for i in 0...n { here[i] = rest[i] || (fits(i) && rest[i + 1]) }
            case .star, .plus:
                var star = [Bool](repeating: false, count: n + 1)
                for i in stride(from: n, through: 0, by: -1) { star[i] = rest[i] || (fits(i) && star[i + 1]) }
                if quantifier == .star { return star }
                for i in 0..<n { here[i] = fits(i) && star[i + 1] }
            }
        }
        return here
    }

    /// lstrlib.c's matchbalance: the index after the `close` that balances the `open` at i.
    private static func balanceEnd(_ s: [UInt8], from i: Int, _ open: UInt8, _ close: UInt8) -> Int? {
        guard s[i] == open else { return nil }
        var depth = 1, j = i + 1
        while j < s.count {
            if s[j] == close {
                depth -= 1
                if depth == 0 { return j + 1 }
            } else if s[j] == open {
                depth += 1
            }
            j += 1
        }
        return nil
    }
}

extension LuaPatternMatcher {
    /// The items of a well-formed pattern (LuaPattern.problem found none), and whether it starts
    /// with `^`; nil when it has a back-reference.
    private static func parse(_ p: [UInt8]) -> (items: [Item], anchored: Bool)? {
        var items: [Item] = []
        let anchored = p.first == UInt8(ascii: "^")
        var i = anchored ? 1 : 0
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "("), UInt8(ascii: ")"): i += 1   // captures match as their contents
            case UInt8(ascii: "$") where i + 1 == p.count: items.append(.end); i += 1
            case UInt8(ascii: "%") where p[i + 1] == UInt8(ascii: "b"):
                items.append(.balance(p[i + 2], p[i + 3])); i += 4
            case UInt8(ascii: "%") where p[i + 1] == UInt8(ascii: "f"):
                let end = classEnd(p, i + 2)
                items.append(.frontier(ClassSpec(bytes: p[(i + 2)..<end]))); i = end
            case UInt8(ascii: "%") where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p[i + 1]):
                return nil
            default:
                let end = classEnd(p, i)
                let quantifiers: [UInt8: Quantifier] = [UInt8(ascii: "*"): .star, UInt8(ascii: "-"): .star,
                                                        UInt8(ascii: "+"): .plus, UInt8(ascii: "?"): .optional]
                let quantifier = end < p.count ? quantifiers[p[end]] : nil
                items.append(.single(ClassSpec(bytes: p[i..<end]), quantifier ?? .one))
                i = quantifier == nil ? end : end + 1
            }
        }
        return (items, anchored)
    }

    /// lstrlib.c's classEnd: the index after the class that starts at i.
    private static func classEnd(_ p: [UInt8], _ start: Int) -> Int {
        var i = start
        let c = p[i]; i += 1
        if c == UInt8(ascii: "%") { return i + 1 }
        guard c == UInt8(ascii: "[") else { return i }
        if i < p.count, p[i] == UInt8(ascii: "^") { i += 1 }
        repeat {   // the first ']' of a set is a member
            if p[i] == UInt8(ascii: "%") { i += 1 }
            i += 1
        } while i < p.count && p[i] != UInt8(ascii: "]")
        return i + 1
    }

    private static func matches(_ c: UInt8, _ spec: ClassSpec) -> Bool {
        let b = spec.bytes, first = b[b.startIndex]
        switch first {
        case UInt8(ascii: "."): return true
        case UInt8(ascii: "%"): return matchesClass(c, b[b.startIndex + 1])
        case UInt8(ascii: "["): return matchesSet(c, b)
        default: return c == first
        }
    }

    /// lstrlib.c's matchbracketclass over `[...]`.
    private static func matchesSet(_ c: UInt8, _ set: ArraySlice<UInt8>) -> Bool {
        var i = set.startIndex + 1
        let end = set.endIndex - 1   // the closing ']'
        var negate = false
        if set[i] == UInt8(ascii: "^") { negate = true; i += 1 }
        while i < end {
            if set[i] == UInt8(ascii: "%"), i + 1 < end {
                if matchesClass(c, set[i + 1]) { return !negate }
                i += 2
            } else if i + 2 < end, set[i + 1] == UInt8(ascii: "-") {
                if set[i] <= c && c <= set[i + 2] { return !negate }
                i += 3
            } else {
                if set[i] == c { return !negate }
                i += 1
            }
        }
        return negate
    }

    /// lstrlib.c's match_class in the C locale; an upper-case class letter negates.
    private static func matchesClass(_ c: UInt8, _ letter: UInt8) -> Bool {
        let lower = letter | 0x20
        let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower)
        let alpha = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
        let digit = c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
        let graph = c > 32 && c < 127
        let result: Bool
        switch isLetter ? lower : 0 {
        case UInt8(ascii: "a"): result = alpha
        case UInt8(ascii: "c"): result = c < 32 || c == 127
        case UInt8(ascii: "d"): result = digit
        case UInt8(ascii: "g"): result = graph
        case UInt8(ascii: "l"): result = c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")
        case UInt8(ascii: "p"): result = graph && !alpha && !digit
        case UInt8(ascii: "s"): result = c == 32 || (c >= 9 && c <= 13)
        case UInt8(ascii: "u"): result = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")
        case UInt8(ascii: "w"): result = alpha || digit
        case UInt8(ascii: "x"): result = digit || ((c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "f"))
        default: return c == letter
        }
        return letter == lower ? result : !result
    }
}
