/// `Name`, `Name#id`, `#id`, `*`, combined with `A > B` (child) and `A B` (descendant).
public struct Query {
    struct Simple {
        var name: String?
        var id: String?

        func matches(_ c: Component) -> Bool {
            if let name, name != c.name { return false }
            if let id {
                let ids = [c.scope.flatMap { Scope.display($0.identifier) }, Scope.display(c.key)]
                if !ids.contains(id) { return false }
            }
            return true
        }
    }

    enum Combinator { case child, descendant }

    /// Right to left: the last simple selector first.
    private var parts: [(Simple, Combinator?)] = []
    public let text: String

    public init(_ text: String) throws {
        self.text = text
        var tokens: [String] = []
        var current = ""
        for ch in text {
            if ch == ">" {
                if !current.isEmpty { tokens.append(current); current = "" }
                tokens.append(">")
            } else if ch == " " || ch == "\t" {
                if !current.isEmpty { tokens.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        var simples: [(Simple, Combinator?)] = []
        var pending: Combinator?
        for token in tokens {
            if token == ">" {
                guard !simples.isEmpty, pending == nil else { throw Query.error(text) }
                pending = .child
                continue
            }
            let pieces = token.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].isEmpty || pieces[0] == "*" ? nil : String(pieces[0])
            let id = pieces.count > 1 ? String(pieces[1]) : nil
            if pieces.count > 1 && id!.isEmpty { throw Query.error(text) }
            simples.append((Simple(name: name, id: id), simples.isEmpty ? nil : (pending ?? .descendant)))
            pending = nil
        }
        guard !simples.isEmpty, pending == nil else { throw Query.error(text) }
        parts = simples.reversed()
    }

    private static func error(_ text: String) -> RuntimeError {
        RuntimeError(.badQuery, "cannot parse the query \"\(text)\"; use Class, Class#id, #id, A > B or A B")
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
        var stack: [(Component, matched: [UInt64], below: [UInt64])] = [(root, none, none)]
        while let (c, parentMatched, parentBelow) = stack.popLast() {
            try limits?.tick(n)
            var matched = none
            for i in 0..<n where simples[i].matches(c) {
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
            for child in c.children.reversed() { stack.append((child, matched, below)) }
        }
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
