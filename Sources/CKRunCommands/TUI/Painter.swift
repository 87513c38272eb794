/// Draws a laid-out `LiveTree` into a region of a canvas: texts as text, buttons as
/// `[ title ]`, other views as frames titled with their class; the focused node stands out.
/// Content is scrolled by `top` rows and `left` columns and clipped to the region.
struct Painter {
    let tree: LiveTree
    let frames: [Rect]
    /// Where on the canvas the view is shown.
    let region: Rect
    /// The content row shown at the region's first row.
    let top: Int
    /// The content column shown at the region's first column.
    var left = 0
    let focused: Int?

    init(tree: LiveTree, frames: [Rect], region: Rect, top: Int, left: Int = 0, focused: Int?) {
        (self.tree, self.frames, self.region, self.top, self.left, self.focused) = (tree, frames, region, top, left, focused)
    }

    func paint(on canvas: Canvas) {
        for i in 0..<tree.count {
            let f = frames[i]
            let at = Rect(x: region.x + f.x - left, y: region.y + f.y - top, width: f.width, height: f.height)
            guard at.intersects(region) else { continue }
            let focus = i == focused
            switch tree[i].kind {
            case .stack: break
            case .text(let lines):
                for (row, line) in lines.enumerated() where row < at.height {
                    text(line, y: at.y + row, x: at.x, limit: at.maxX, focus ? .focus : .plain, on: canvas)
                }
            case .button(let title):
                text(Self.marked(title, focus, "[", "]"), y: at.y, x: at.x, limit: at.maxX, focus ? .focus : .button, on: canvas)
            case .field(let field):
                for piece in FieldLook.pieces(field, width: at.width, focus: focus).pieces {
                    text(piece.text, y: at.y, x: at.x + piece.x, limit: at.maxX, piece.style, on: canvas)
                }
            case .box(let title, let lines):
                frame(at, style: focus ? .focus : .dim, on: canvas)
                text(Self.marked(title, focus), y: at.y, x: at.x + 2, limit: at.maxX - 2, focus ? .focus : .title, on: canvas)
                for (row, line) in lines.enumerated() {
                    text(line, y: at.y + Layout.boxInset.top + row, x: at.x + Layout.boxInset.left,
                         limit: at.maxX - Layout.boxInset.right, .plain, on: canvas)
                }
            }
        }
    }

    /// `[ title ]`, or `[▸title◂]` with the focus: seen without colour or reverse video too (a
    /// monochrome terminal, a captured screen).
    static func marked(_ title: String, _ focus: Bool, _ open: String = "", _ close: String = "") -> String {
        open + (focus ? "▸" : " ") + title + (focus ? "◂" : " ") + close
    }

    /// One row of text from x, cut at `limit` and at the region's edges (a row scrolled in from
    /// the left loses the cells left of the region).
    private func text(_ s: String, y: Int, x: Int, limit: Int, _ style: CellStyle, on canvas: Canvas) {
        guard y >= region.y, y < region.maxY, x < region.maxX else { return }
        var (s, x) = (s, x)
        if x < region.x {
            let cut = Cells.dropping(region.x - x, of: s)
            (s, x) = (cut.rest, x + cut.dropped)
        }
        let shown = Cells.prefix(s, fitting: min(limit, region.maxX) - x)
        if !shown.isEmpty { canvas.text(shown, y: y, x: x, style: style) }
    }

    /// A frame's edges and corners, those parts of them inside the region.
    private func frame(_ r: Rect, style: CellStyle, on canvas: Canvas) {
        guard r.width >= 2, r.height >= 2 else { return }
        let columns = max(r.x + 1, region.x)..<min(r.maxX - 1, region.maxX)
        let rows = max(r.y + 1, region.y)..<min(r.maxY - 1, region.maxY)
        for y in [r.y, r.maxY - 1] where y >= region.y && y < region.maxY && !columns.isEmpty {
            canvas.line(y: y, x: columns.lowerBound, length: columns.count, vertical: false, style: style)
        }
        for x in [r.x, r.maxX - 1] where x >= region.x && x < region.maxX && !rows.isEmpty {
            canvas.line(y: rows.lowerBound, x: x, length: rows.count, vertical: true, style: style)
        }
        let corners: [(Corner, Int, Int)] = [(.topLeft, r.y, r.x), (.topRight, r.y, r.maxX - 1),
                                             (.bottomLeft, r.maxY - 1, r.x), (.bottomRight, r.maxY - 1, r.maxX - 1)]
        for (corner, y, x) in corners where y >= region.y && y < region.maxY && x >= region.x && x < region.maxX {
            canvas.corner(corner, y: y, x: x, style: style)
        }
    }
}
