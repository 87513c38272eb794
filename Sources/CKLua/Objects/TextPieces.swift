/// A value's text assembled without recursion (`TableText`, `JSONText`): each finished table is
/// its list of pieces, its entries' text and the tables nested in it, written out once at the
/// end, so a deep chain costs its size, not its size times its depth.
struct TextPieces {
    /// An entry's text, or a finished nested table (its index here).
    enum Piece { case text(String), table(Int) }
    private var finished: [[Piece]] = []

    /// Keeps a finished table's pieces; the index that names it.
    mutating func finish(_ pieces: [Piece]) -> Int {
        finished.append(pieces)
        return finished.count - 1
    }

    /// The text of the table at `root`, its nested tables written in place.
    func written(_ root: Int) -> String {
        var out = "", pending: [(table: Int, next: Int)] = [(root, 0)]
        while let (table, next) = pending.popLast() {
            guard next < finished[table].count else { continue }
            pending.append((table, next + 1))
            switch finished[table][next] {
            case .text(let t): out += t
            case .table(let nested): pending.append((nested, 0))
            }
        }
        return out
    }
}
