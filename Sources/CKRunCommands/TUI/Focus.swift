/// Which view has the focus, and where each key moves it: Tab and Shift-Tab go through the
/// focusable views in tree order (reading order), wrapping; an arrow goes to the nearest
/// focusable view that way, else to the next (Down, Right) or previous (Up, Left) in order.
enum Focus {
    enum Move: Equatable {
        case next, previous
        case toward(Direction)
    }

    enum Direction: Equatable { case up, down, left, right }

    /// The focusable nodes, in tree order.
    static func order(_ tree: LiveTree) -> [Int] {
        (0..<tree.count).filter { tree[$0].focusable }
    }

    /// The node `move` reaches from `current` (a node of `order`, or nil: none focused yet).
    static func moved(_ move: Move, from current: Int?, order: [Int], frames: [Rect]) -> Int? {
        guard !order.isEmpty else { return nil }
        guard let current, let at = order.firstIndex(of: current) else {
            return move == .previous || move == .toward(.up) || move == .toward(.left) ? order.last : order.first
        }
        switch move {
        case .next: return order[(at + 1) % order.count]
        case .previous: return order[(at - 1 + order.count) % order.count]
        case .toward(let direction):
            if let nearest = nearest(direction, from: frames[current], among: order.filter { $0 != current }, frames: frames) {
                return nearest
            }
            let forward = direction == .down || direction == .right
            return order[forward ? min(at + 1, order.count - 1) : max(at - 1, 0)]
        }
    }

    /// The candidate wholly beyond `from`'s edge in `direction` that is closest: distance along
    /// the direction counts twice the distance across it.
    static func nearest(_ direction: Direction, from: Rect, among candidates: [Int], frames: [Rect]) -> Int? {
        var best: (node: Int, score: Int)?
        for c in candidates {
            let r = frames[c]
            let gap: Int
            switch direction {
            case .down: gap = r.y - from.maxY
            case .up: gap = from.y - r.maxY
            case .right: gap = r.x - from.maxX
            case .left: gap = from.x - r.maxX
            }
            guard gap >= 0 else { continue }
            let vertical = direction == .up || direction == .down
            let side = vertical ? separation(r.x, r.maxX, from.x, from.maxX) : separation(r.y, r.maxY, from.y, from.maxY)
            let score = 2 * gap + side
            if best == nil || score < best!.score { best = (c, score) }
        }
        return best?.node
    }

    /// How far apart two ranges are (0 when they overlap).
    private static func separation(_ a: Int, _ aEnd: Int, _ b: Int, _ bEnd: Int) -> Int {
        max(0, max(a - bEnd, b - aEnd) + 1)
    }
}
