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

    public func matches(_ c: Component) -> Bool {
        guard parts[0].0.matches(c) else { return false }
        return matchAncestors(from: c, part: 0)
    }

    /// Parts[i] matched `c`; checks the rest against its ancestors (backtracking on descendant).
    private func matchAncestors(from c: Component, part i: Int) -> Bool {
        guard i + 1 < parts.count else { return true }
        let (next, _) = parts[i + 1]
        let combinator = parts[i].1!
        var ancestor = c.parent
        while let a = ancestor {
            if next.matches(a), matchAncestors(from: a, part: i + 1) { return true }
            if combinator == .child { return false }
            ancestor = a.parent
        }
        return false
    }
}

extension Host {
    public func find(_ query: String) throws -> Component? {
        try checkAlive("find")
        let q = try Query(query)
        return allComponents().first(where: q.matches)
    }

    public func findAll(_ query: String) throws -> [Component] {
        try checkAlive("findAll")
        let q = try Query(query)
        return allComponents().filter(q.matches)
    }
}
