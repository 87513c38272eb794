/// What the view area shows: the laid-out tree, which node has the focus, and how far the
/// content is scrolled. Plain data, changed by keys and rebuilds; kept apart from the terminal.
struct Scene {
    private(set) var tree = LiveTree()
    private(set) var frames: [Rect] = []
    private(set) var order: [Int] = []
    private(set) var focused: Int?
    /// The content row at the top of the view area, and the content column at its left edge.
    private(set) var top = 0
    private(set) var left = 0
    private(set) var area = Size()
    /// The focused node's identity across rebuilds, as the caller gives it (`FocusIdentity`).
    private var focusedKey: AnyHashable?
    /// Page Up/Down left the focus off the page with no focusable view on it: nothing is
    /// focused until a key or a page gives the focus again (builds do not take it back).
    private(set) var scrolledAway = false

    /// A new tree (a build): the focus stays on the node whose key (`key(node)`) it had, found
    /// by `find` (else by asking each focusable node), else on the one at the same place in the
    /// focus order.
    /// A build keeps the scroll (a log that grows on a timer stays where the user paged to); it
    /// scrolls the focused view into view only when the focus changed or its view moved.
    mutating func replace<Key: Hashable>(with tree: LiveTree, key: (Int) -> Key, find: ((Key) -> Int?)? = nil) {
        let place = focused.flatMap { order.firstIndex(of: $0) }
        let before = (key: focusedKey, frame: focused.map { frames[$0] })
        self.tree = tree
        order = Focus.order(tree)
        frames = Layout.frames(tree, in: area)
        focused = nil
        if let wanted = focusedKey?.base as? Key {
            if let place, place < order.count, key(order[place]) == wanted {
                focused = order[place]
            } else if let find {
                focused = find(wanted).flatMap { tree[$0].focusable ? $0 : nil }
            } else {
                focused = order.first { key($0) == wanted }
            }
        }
        if focused == nil, !order.isEmpty, !scrolledAway { focused = order[min(place ?? 0, order.count - 1)] }
        focusedKey = focused.map { AnyHashable(key($0)) }
        if focused != nil { scrolledAway = false }
        if focusedKey == before.key, focused.map({ frames[$0] }) == before.frame {
            top = max(0, min(top, contentHeight - area.height))
        } else {
            reveal()
        }
    }

    /// The view area's size changed.
    mutating func resize(to area: Size) {
        guard area != self.area else { return }
        self.area = area
        frames = Layout.frames(tree, in: area)
        reveal()
    }

    mutating func move<Key: Hashable>(_ move: Focus.Move, key: (Int) -> Key) {
        focus(Focus.moved(move, from: focused, order: order, frames: frames), key: key)
    }

    mutating func focus<Key: Hashable>(_ node: Int?, key: (Int) -> Key) {
        guard let node else { return }
        scrolledAway = false
        focused = node
        focusedKey = AnyHashable(key(node))
        reveal()
    }

    /// Scrolls by pages; a focus the page leaves behind goes to the first focusable view now
    /// wholly in the area (keys act on what is seen), and with none there nothing is focused
    /// (Tab or a page with one focuses again).
    mutating func scroll<Key: Hashable>(pages: Int, key: (Int) -> Key) {
        top = max(0, min(top + pages * max(1, area.height - 1), contentHeight - area.height))
        if let focused, isInArea(focused) { return }
        guard focused != nil || scrolledAway else { return }
        if let seen = order.first(where: isInArea) {
            focused = seen
            focusedKey = AnyHashable(key(seen))
            scrolledAway = false
        } else {
            focused = nil
            focusedKey = nil
            scrolledAway = true
        }
    }

    private func isInArea(_ node: Int) -> Bool {
        let f = frames[node]
        return f.y >= top && f.maxY <= top + area.height && f.x >= left && f.maxX <= left + area.width
    }

    var contentHeight: Int { frames.map(\.maxY).max() ?? 0 }
    var contentWidth: Int { frames.map(\.maxX).max() ?? 0 }

    /// The deepest focusable node at a point of the view area (0-based, from its corner).
    func focusable(atRow row: Int, column: Int) -> Int? {
        let y = row + top, x = column + left
        return order.last { frames[$0].x <= x && x < frames[$0].maxX && frames[$0].y <= y && y < frames[$0].maxY }
    }

    /// Scrolls so that the focused node is in view: down, and across (a button right of a long
    /// label was focused and tapped unseen). Across it scrolls only as far as the focus needs
    /// from the rows' start: a scroll made for an earlier, narrower area (the first build comes
    /// before the area has a size) never stays once the focus fits without it. An area with no
    /// cells shows nothing and scrolls nothing.
    private mutating func reveal() {
        top = max(0, min(top, contentHeight - area.height))
        left = 0
        guard let focused, area.width > 0, area.height > 0 else { return }
        let f = frames[focused]
        top = Self.revealing(f.y..<f.maxY, from: top, showing: area.height)
        left = Self.revealing(f.x..<f.maxX, from: 0, showing: area.width)
    }

    /// The start of a window `length` long that shows `span` (its start, when it is longer),
    /// moving as little as it can from `start`.
    private static func revealing(_ span: Range<Int>, from start: Int, showing length: Int) -> Int {
        if span.lowerBound < start { return span.lowerBound }
        if span.upperBound > start + length { return max(0, min(span.lowerBound, span.upperBound - length)) }
        return start
    }
}
