/// `Name`, `Name#id`, `#id`, `*`, each with `[N]` for the N-th of its siblings that the rest
/// matches (`Button[2]`), combined with `A > B` (child) and `A B` (descendant); or a path as
/// ckrun prints one (`App/Stack/Row#2/Button[2]`): steps from the root down, each naming exactly
/// one label. An id is written as names print it (`ScopeName`): `Row#3`, `Row#"1"` (a string that
/// would read as something else, or holds a space, `>` or `#`, in quotes), `Row#id#3`.
public struct Query {
    struct Simple {
        var name: String?
        var ids: [ID] = []
        /// `[N]`: the N-th (from 1) among its parent's children that match the rest.
        var position: Int?
        /// A path's step: the ids are the label's whole (`Button` is a button with no identifier
        /// and no key), so `[N]` counts the siblings of that label, as `path` does.
        var exact = false
        /// `[title="reset"]`: each a prop or view attribute holding that string.
        var attributes: [Attribute] = []

        func matches(_ c: Component, _ tables: ScriptTables?) -> Bool {
            if let name, name != c.name { return false }
            guard idsMatch(c) else { return false }
            for a in attributes where !a.matches(c, tables) { return false }
            return true
        }

        private func idsMatch(_ c: Component) -> Bool {
            let identifier = c.scope?.identifier ?? .nil
            if exact { return exactlyMatches(identifier, c.key) }
            switch ids.count {
            case 0: return true
            case 1: return ids[0].matches(identifier) || ids[0].matches(c.key)
            default: return ids[0].matches(identifier) && ids[1].matches(c.key) || joinedMatches(identifier, c.key)
            }
        }

        /// The ids written are the ones the label prints, in its order (identifier, then key).
        private func exactlyMatches(_ identifier: Value, _ key: Value) -> Bool {
            switch (identifier.isNil, key.isNil) {
            case (true, true): return ids.isEmpty
            case (false, true): return ids.count == 1 && ids[0].printsAs(identifier)
            case (true, false): return ids.count == 1 && ids[0].printsAs(key)
            case (false, false): return ids.count == 2 && ids[0].printsAs(identifier) && ids[1].printsAs(key)
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

        /// As a path's step reads it: bare text is the value's printed part (`2` is the key 2,
        /// not "2", which prints `"2"`).
        func printsAs(_ v: Value) -> Bool {
            if case .text(let t) = self { return ScopeName.part(v) == t }
            return matches(v)
        }

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

    /// `[title="reset"]`: what the user sees, as a test finds a control by it. Matches when the
    /// component's prop of that name, or its view's attribute, is exactly that string.
    struct Attribute {
        let name: String
        let text: [UInt8]

        func matches(_ c: Component, _ tables: ScriptTables?) -> Bool {
            guard let tables else { return false }
            let wanted = ID.quoted(text)
            if case .table(let props) = c.props, wanted.matches(tables.field(props, name)) { return true }
            if let view = c.view, case .table(let attributes) = view.attributes, wanted.matches(tables.field(attributes, name)) { return true }
            return false
        }
    }

    enum Combinator { case child, descendant }

    /// Right to left: the last simple selector first.
    private var parts: [(Simple, Combinator?)] = []
    /// A path (`A/B`): its first step is the root.
    private var anchored = false
    public let text: String

    public init(_ text: String) throws {
        self.text = text
        var simples: [(Simple, Combinator?)] = []
        var joins: [String] = []   // between neighbouring selectors: ">", "/" or " "
        var pending: (symbol: String, at: Int)?
        var reader = QueryText(text)
        for token in try reader.tokens() {
            let symbol: String, at: Int
            switch token {
            case .simple(let simple):
                if !simples.isEmpty { joins.append(pending?.symbol ?? " ") }
                simples.append((simple, simples.isEmpty ? nil : (pending == nil ? .descendant : .child)))
                pending = nil
                continue
            case .child(let column): (symbol, at) = (">", column)
            case .step(let column): (symbol, at) = ("/", column)
            }
            if simples.isEmpty {
                throw Query.error(text, symbol == "/" ? "`/` at column \(at) has no step before it; a path starts with the root's name (App/Stack)" : "`>` at column \(at) has no selector before it")
            }
            if let p = pending {
                let other = p.symbol == symbol ? "another `\(symbol)`" : "`\(p.symbol)`"
                throw Query.error(text, "`\(symbol)` at column \(at) follows \(other) with no selector between them")
            }
            pending = (symbol, at)
        }
        if simples.isEmpty { throw Query.error(text, "it names no component") }
        if let p = pending { throw Query.error(text, "`\(p.symbol)` at column \(p.at) needs a selector after it") }
        anchored = joins.contains("/")
        if anchored { try Query.makePath(&simples, joins, text) }
        parts = simples.reversed()
    }

    /// A path (`/`, as ckrun prints one) is whole from the root, with no `>` or descendant in
    /// it; each step is one component: a step printed without `[N]` is the first of its label.
    private static func makePath(_ simples: inout [(Simple, Combinator?)], _ joins: [String], _ text: String) throws {
        guard joins.allSatisfy({ $0 == "/" }) else {
            throw Query.error(text, "a path (`A/B`, as ckrun prints one) has `/` between all its steps, from the root down; it mixes in no `>` or descendant space")
        }
        for k in simples.indices {
            simples[k].0.exact = true
            simples[k].0.position = simples[k].0.position ?? 1
        }
    }

    /// `[badQuery]`: what is wrong and where (`problem`: "`[0]` at column 7: positions count
    /// from 1"), then the grammar.
    static func error(_ text: String, _ problem: String) -> RuntimeError {
        RuntimeError(.badQuery, "cannot parse the query \"\(Excerpt.text(text))\": \(problem); use Class, Class#id, #id, Class#\"text\" (quoted as names print it: Row#\"1\", Row#\"a b\"), Class#id#key, Class[2] (the second such sibling), Class[title=\"text\"] (a prop or view attribute), * or *[2] (any class), A > B, A B, or a path from the root as ckrun prints it (App/Stack/Button[2])")
    }

    /// Calls `visit` with each component under `root` that matches, depth-first, parents first,
    /// until it returns false. One pass from the root down: each component gets two bit sets
    /// over the query's parts (left to right), from its parent's alone — `matched` (this
    /// component matches part i with parts 0..<i matched above it) and `below` (some strict
    /// ancestor has `matched` at i) — so a query costs O(components × parts) whatever the
    /// tree's depth or the query's descendant combinators (backtracking was exponential).
    func forEachMatch(under root: Component, limits: WorkLimits?, tables: ScriptTables?, _ visit: (Component) -> Bool) throws {
        let simples = parts.reversed().map(\.0)
        // combinators[i]: how part i relates to part i - 1 (nil for part 0).
        let combinators = parts.reversed().map(\.1)
        let n = simples.count
        let words = (n + 63) / 64
        let none = [UInt64](repeating: 0, count: words)
        let positioned = (0..<n).filter { simples[$0].position != nil }
        func nth(_ siblings: [Component]) throws -> [[UInt64]] {
            try Query.nthBits(siblings, simples, positioned, none, limits, tables)
        }
        var stack: [(Component, matched: [UInt64], below: [UInt64], nth: [UInt64])] = [(root, none, none, try nth([root]).first ?? none)]
        while let (c, parentMatched, parentBelow, nthBits) = stack.popLast() {
            try limits?.tick(n)
            var matched = none
            for i in 0..<n where simples[i].matches(c, tables) && (simples[i].position == nil || Query.bit(nthBits, i)) {
                let ok: Bool
                if i == 0 {
                    ok = !anchored || c === root
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
                                _ none: [UInt64], _ limits: WorkLimits?, _ tables: ScriptTables?) throws -> [[UInt64]] {
        var out = [[UInt64]](repeating: none, count: positioned.isEmpty ? 0 : siblings.count)
        for i in positioned {
            try limits?.tick(siblings.count)
            var count = 0
            for (k, sibling) in siblings.enumerated() where simples[i].matches(sibling, tables) {
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
        try q.forEachMatch(under: root, limits: runtime.limits, tables: runtime.tables) { found = $0; return false }
        return found
    }

    public func findAll(_ query: String) throws -> [Component] {
        try checkAlive("findAll")
        let q = try Query(query)
        guard let root else { return [] }
        var all: [Component] = []
        try q.forEachMatch(under: root, limits: runtime.limits, tables: runtime.tables) { all.append($0); return true }
        return all
    }
}
