/// The child scopes of one identity, in claim order. Siblings rarely share an identity, so the
/// first is held without an array: a scope costs its parent no allocation of its own.
struct ScopeSiblings: RandomAccessCollection {
    private var first: Scope?
    private var rest: [Scope] = []

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + rest.count }

    subscript(i: Int) -> Scope { i == 0 ? first! : rest[i - 1] }

    mutating func append(_ scope: Scope) {
        if first == nil { first = scope } else { rest.append(scope) }
    }
}
