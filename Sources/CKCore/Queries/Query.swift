/// `Name`, `Name#id`, `#id`, `*`, each with `[N]` for the N-th of its siblings that the rest
/// matches (`Button[2]`), combined with `A > B` (child) and `A B` (descendant). An id
/// is written as names print it (`ScopeName`): `Row#3`, `Row#"1"` (a string that would read as
/// something else, or holds a space, `>` or `#`, in quotes), `Row#id#3` (identifier, then key).
public struct Query {
    struct Simple {
        var name: String?
        var ids: [ID] = []
        /// `[N]`: the N-th (from 1) among its parent's children that match the rest.
        var position: Int?

        func matches(_ c: Component) -> Bool {
            if let name, name != c.name { return false }
            let identifier = c.scope?.identifier ?? .nil
            switch ids.count {
            case 0: return true
            case 1: return ids[0].matches(identifier) || ids[0].matches(c.key)
            default: return ids[0].matches(identifier) && ids[1].matches(c.key) || joinedMatches(identifier, c.key)
            }
        }

        /// `Item#x#y` written bare also names the one id `x#y` (as the REPL completes it).
        private func joinedMatches(_ identifier: Value, _ key: Value) -> Bool {
            guard case .text(let a) = ids[0], case .text(let b) = ids[1] else { return false }
            let joined = ID.text(a + "#" + b)
            return joined.matches(identifier) || joined.matches(key)
        }
    }

    /// An id as written: bare text matches a value that shows as it (`1` matches 1 and "1"),
    /// quoted text only the string itself.
    enum ID {
        /// Quoted: the string's bytes (`\233` is the byte 233, as names print a string that is not UTF-8).
        case text(String), quoted([UInt8])

        func matches(_ v: Value) -> Bool {
            switch self {
            case .text(let t): return Scope.display(v) == t
            case .quoted(let q):
                switch v {
                case .string(let s): return s.utf8.elementsEqual(q)
                case .opaque(let r) where r.typeName == "string":
                    guard let (_, count) = r.stringBytes(upTo: 0), count == q.count else { return false }
                    return r.stringBytes(upTo: count)?.bytes == q
                default: return false
                }
            }
        }
    }

    enum Combinator { case child, descendant }

    /// Right to left: the last simple selector first.
    private var parts: [(Simple, Combinator?)] = []
    public let text: String

    public init(_ text: String) throws {
        self.text = text
        var simples: [(Simple, Combinator?)] = []
        var pending: Combinator?
        var reader = QueryText(text)
        var lastChild = 0
        for token in try reader.tokens() {
            guard case .simple(let simple) = token else {
                guard case .child(let at) = token else { continue }
                if simples.isEmpty { throw Query.error(text, "`>` at column \(at) has no selector before it") }
                if pending != nil { throw Query.error(text, "`>` at column \(at) follows another `>` with no selector between them") }
                pending = .child
                lastChild = at
                continue
            }
            simples.append((simple, simples.isEmpty ? nil : (pending ?? .descendant)))
            pending = nil
        }
        if simples.isEmpty { throw Query.error(text, "it names no component") }
        if pending != nil { throw Query.error(text, "`>` at column \(lastChild) needs a selector after it") }
        parts = simples.reversed()
    }

    /// `[badQuery]`: what is wrong and where (`problem`: "`[0]` at column 7: positions count
    /// from 1"), then the grammar.
    static func error(_ text: String, _ problem: String) -> RuntimeError {
        RuntimeError(.badQuery, "cannot parse the query \"\(Excerpt.text(text))\": \(problem); use Class, Class#id, #id, Class#\"text\" (quoted as names print it: Row#\"1\", Row#\"a b\"), Class#id#key, Class[2] (the second such sibling), * or *[2] (any class), A > B or A B")
    }

    /// Calls `visit` with each component under `root` that matches, depth-first, parents first,
    /// until it returns false. One pass from the root down: each component gets two bit sets
    /// over the query's parts (left to right), from its parent's alone — `matched` (this
    /// component matches part i with parts 0..<i matched above it) and `below` (some strict
    /// ancestor has `matched` at i) — so a query costs O(components × parts) whatever the
    /// tree's depth or the query's descendant combinators (backtracking was exponential).
    func forEachMatch(under root: Component, limits: WorkLimits?, _ visit: (Component) -> Bool) throws {
        let simples = parts.reversed().map(\.0)
        // combinators[i]: how part i relates to part i - 1 (nil for part 0).
        let combinators = parts.reversed().map(\.1)
        let n = simples.count
        let words = (n + 63) / 64
        let none = [UInt64](repeating: 0, count: words)
        let positioned = (0..<n).filter { simples[$0].position != nil }
        func nth(_ siblings: [Component]) throws -> [[UInt64]] {
            try Query.nthBits(siblings, simples, positioned, none, limits)
        }
        var stack: [(Component, matched: [UInt64], below: [UInt64], nth: [UInt64])] = [(root, none, none, try nth([root]).first ?? none)]
        while let (c, parentMatched, parentBelow, nthBits) = stack.popLast() {
            try limits?.tick(n)
            var matched = none
            for i in 0..<n where simples[i].matches(c) && (simples[i].position == nil || Query.bit(nthBits, i)) {
                let ok: Bool
                if i == 0 {
                    ok = true
                } else if combinators[i] == .child {
                    ok = Query.bit(parentMatched, i - 1)
                } else {
                    ok = Query.bit(parentBelow, i - 1)
                }
                if ok { matched[i / 64] |= 1 << UInt64(i % 64) }
            }
            if Query.bit(matched, n - 1), !visit(c) { return }
            guard !c.children.isEmpty else { continue }
            var below = parentBelow
            for w in 0..<words { below[w] |= matched[w] }
            let childBits = try nth(c.children)
            for (k, child) in c.children.enumerated().reversed() { stack.append((child, matched, below, childBits.isEmpty ? none : childBits[k])) }
        }
    }

    /// For each of `siblings`, the bits of the parts with a position (`positioned`) whose N-th
    /// match among them it is; empty when no part has one.
    private static func nthBits(_ siblings: [Component], _ simples: [Simple], _ positioned: [Int],
                                _ none: [UInt64], _ limits: WorkLimits?) throws -> [[UInt64]] {
        var out = [[UInt64]](repeating: none, count: positioned.isEmpty ? 0 : siblings.count)
        for i in positioned {
            try limits?.tick(siblings.count)
            var count = 0
            for (k, sibling) in siblings.enumerated() where simples[i].matches(sibling) {
                count += 1
                if count == simples[i].position { out[k][i / 64] |= 1 << UInt64(i % 64) }
            }
        }
        return out
    }

    private static func bit(_ bits: [UInt64], _ i: Int) -> Bool { bits[i / 64] & (1 << UInt64(i % 64)) != 0 }
}

extension Host {
    public func find(_ query: String) throws -> Component? {
        try checkAlive("find")
        let q = try Query(query)
        guard let root else { return nil }
        var found: Component?
        try q.forEachMatch(under: root, limits: runtime.limits) { found = $0; return false }
        return found
    }

    public func findAll(_ query: String) throws -> [Component] {
        try checkAlive("findAll")
        let q = try Query(query)
        guard let root else { return [] }
        var all: [Component] = []
        try q.forEachMatch(under: root, limits: runtime.limits) { all.append($0); return true }
        return all
    }
}
