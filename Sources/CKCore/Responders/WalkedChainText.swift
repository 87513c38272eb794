/// A walked responder chain as a message shows it, `A -> B -> … 12 more -> Z -> nil`: the first
/// `Tracer.visitLimit - 1` responders and the last, as a `ck.trace` entry keeps them (issue 28:
/// an unhandled send from depth 100,000 put 500 KB of names in its message).
enum WalkedChainText {
    static func text(_ chain: [Responder]) -> String {
        let limit = Tracer.visitLimit
        var names: [String]
        if chain.count <= limit {
            names = chain.map(\.name)
        } else {
            names = chain.prefix(limit - 1).map(\.name)
            names.append("… \(chain.count - limit) more")
            names.append(chain[chain.count - 1].name)
        }
        names.append("nil")
        return names.joined(separator: " -> ")
    }
}
