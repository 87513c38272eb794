/// What the live view draws at its next wait: the whole screen when something changed (a key,
/// a build, output, a resize), or only the status row when the wall clock's second went by. At
/// rest the clock's tick is all that happens, so a tick never paints the tree again: its cost
/// is one row, whatever the tree's size or depth (atk-apps3 07: a tree 200,000 stacks deep
/// cost 20% of a core at rest, painted whole each second).
struct PendingDraw {
    enum Kind: Equatable { case whole, status }

    private var whole = false
    private var status = false
    /// Whole draws taken since the start: the tree is painted once each.
    private(set) var wholeDraws = 0
    /// Status-row draws taken since the start.
    private(set) var statusDraws = 0

    /// Something the screen shows changed.
    mutating func changed() { whole = true }
    /// The wall clock's shown second went by.
    mutating func tick() { status = true }
    var isPending: Bool { whole || status }

    /// What to draw now, once; nil: nothing.
    mutating func take() -> Kind? {
        defer { (whole, status) = (false, false) }
        if whole { wholeDraws += 1; return .whole }
        if status { statusDraws += 1; return .status }
        return nil
    }
}
