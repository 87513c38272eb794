import CKCore

/// A rectangle of terminal cells.
struct Rect: Equatable {
    var x = 0, y = 0, width = 0, height = 0

    var maxX: Int { x + width }
    var maxY: Int { y + height }

    func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}

struct Size: Equatable {
    var width = 0, height = 0
}

/// Where each node of a `LiveTree` goes: a pure function of the tree and the room there is.
/// Every node has a natural size (text and titles by their cells, a box around its contents, a
/// stack around its children and their spacing); a stack fills the frame it is given and places
/// its children along its direction (`justifyContent`) and across it (`alignItems`), as
/// ComponentKit's stack layout does; the root stack is given at least the whole area. Nothing
/// shrinks: what does not fit runs past the area and is clipped when painted.
enum Layout {
    /// A box's frame and the blank column inside it on each side.
    static let boxInset = (left: 2, right: 2, top: 1, bottom: 1)

    /// The frame of every node, in the tree's order.
    static func frames(_ tree: LiveTree, in area: Size) -> [Rect] {
        guard !tree.isEmpty else { return [] }
        let sizes = naturalSizes(tree, fieldsWithin: area.width)
        var frames = [Rect](repeating: Rect(), count: tree.count)
        let root = sizes[0]
        if case .stack = tree[0].kind {
            frames[0] = Rect(x: 0, y: 0, width: max(root.width, area.width), height: max(root.height, area.height))
        } else {
            frames[0] = Rect(x: 0, y: 0, width: root.width, height: root.height)
        }
        for i in 0..<tree.count where !tree[i].children.isEmpty {
            place(children: tree[i].children, of: tree[i], in: frames[i], sizes: sizes, into: &frames)
        }
        return frames
    }

    /// Each node's natural size; children come after their parent, so a walk from the end
    /// meets every child before its parent.
    /// A text field is never wider than the area (`width`): its text scrolls in what room it has,
    /// keeping the cursor in view.
    static func naturalSizes(_ tree: LiveTree, fieldsWithin width: Int = .max) -> [Size] {
        var sizes = [Size](repeating: Size(), count: tree.count)
        for i in stride(from: tree.count - 1, through: 0, by: -1) {
            sizes[i] = naturalSize(of: tree[i], children: tree[i].children.map { sizes[$0] })
            if case .field = tree[i].kind { sizes[i].width = min(sizes[i].width, max(FieldLook.frame + 2, width)) }
        }
        return sizes
    }

    static func naturalSize(of node: LiveTree.Node, children: [Size]) -> Size {
        let column = Size(width: children.map(\.width).max() ?? 0, height: children.reduce(0) { $0 + $1.height })
        switch node.kind {
        case .text(let lines):
            return Size(width: lines.map(Cells.width).max() ?? 0, height: max(1, lines.count))
        case .button(let title):
            return Size(width: Cells.width(title) + 4, height: 1)
        case .field(let field):
            return Size(width: FieldLook.naturalWidth(field), height: 1)
        case .box(let title, let lines):
            let inner = Size(width: max(column.width, lines.map(Cells.width).max() ?? 0), height: lines.count + column.height)
            return Size(width: max(inner.width + boxInset.left + boxInset.right, Cells.width(title) + 6),
                        height: inner.height + boxInset.top + boxInset.bottom)
        case .stack(let style):
            let gaps = style.spacing * max(0, children.count - 1)
            let along = children.reduce(gaps) { $0 + $1.along(style.direction) }
            let across = children.map { $0.across(style.direction) }.max() ?? 0
            return Size(along: along, across: across, style.direction)
        }
    }

    private static func place(children: [Int], of node: LiveTree.Node, in frame: Rect, sizes: [Size], into frames: inout [Rect]) {
        guard case .stack(let style) = node.kind else {
            // A box: its lines, then its children one under another, each at its natural size.
            var y = frame.y + boxInset.top + lines(of: node)
            for child in children {
                frames[child] = Rect(x: frame.x + boxInset.left, y: y, width: sizes[child].width, height: sizes[child].height)
                y += sizes[child].height
            }
            return
        }
        let direction = style.direction
        let room = Size(width: frame.width, height: frame.height)
        let used = children.reduce(style.spacing * max(0, children.count - 1)) { $0 + sizes[$1].along(direction) }
        var offsets = Spacing.offsets(count: children.count, free: max(0, room.along(direction) - used),
                                      spacing: style.spacing, justify: style.justifyContent).makeIterator()
        var along = 0
        for child in children {
            along += offsets.next() ?? 0
            let size = sizes[child]
            let (across, extent) = Spacing.across(size.across(direction), in: room.across(direction), style.alignItems)
            let origin = Size(along: along, across: across, direction)
            let placed = Size(along: size.along(direction), across: extent, direction)
            frames[child] = Rect(x: frame.x + origin.width, y: frame.y + origin.height, width: placed.width, height: placed.height)
            along += size.along(direction)
        }
    }

    private static func lines(of node: LiveTree.Node) -> Int {
        if case .box(_, let lines) = node.kind { return lines.count }
        return 0
    }
}

/// Where a stack's children go along and across its direction.
enum Spacing {
    /// The space before each child along the direction: the first child's lead, then the gap
    /// before each of the others.
    static func offsets(count: Int, free: Int, spacing: Int, justify: StackLayout.Justification) -> [Int] {
        guard count > 0 else { return [] }
        let lead: Int
        var gaps = [Int](repeating: spacing, count: count - 1)
        switch justify {
        case .start: lead = 0
        case .center: lead = free / 2
        case .end: lead = free
        case .spaceBetween:
            lead = 0
            for g in gaps.indices { gaps[g] += free / gaps.count + (g < free % gaps.count ? 1 : 0) }
        }
        return [lead] + gaps
    }

    /// A child's offset and extent across the direction.
    static func across(_ natural: Int, in room: Int, _ alignment: StackLayout.Alignment) -> (offset: Int, extent: Int) {
        let free = max(0, room - natural)
        switch alignment {
        case .start: return (0, natural)
        case .center: return (free / 2, natural)
        case .end: return (free, natural)
        case .stretch: return (0, max(natural, room))
        }
    }
}

extension Size {
    init(along: Int, across: Int, _ direction: StackLayout.Direction) {
        self = direction == .vertical ? Size(width: across, height: along) : Size(width: along, height: across)
    }

    func along(_ direction: StackLayout.Direction) -> Int { direction == .vertical ? height : width }
    func across(_ direction: StackLayout.Direction) -> Int { direction == .vertical ? width : height }
}
