import CCurses

/// The terminal, through ncursesw (`Sources/CCurses`, loaded with dlopen when first used).
final class CursesCanvas: Canvas {
    func text(_ text: String, y: Int, x: Int, style: CellStyle) {
        let text = Cells.drawn(text)
        let length = Int32(clamping: text.utf8.count)
        text.withCString { ckcurses_screen_text(Int32(y), Int32(x), $0, length, style.curses) }
    }

    func line(y: Int, x: Int, length: Int, vertical: Bool, style: CellStyle) {
        ckcurses_screen_line(Int32(y), Int32(x), Int32(length), vertical ? 1 : 0, style.curses)
    }

    func corner(_ corner: Corner, y: Int, x: Int, style: CellStyle) {
        ckcurses_screen_corner(Int32(y), Int32(x), corner.curses, style.curses)
    }

    func fill(y: Int, x: Int, width: Int, style: CellStyle) {
        ckcurses_screen_fill(Int32(y), Int32(x), Int32(width), style.curses)
    }
}

extension CellStyle {
    var curses: ck_style {
        switch self {
        case .plain: CK_STYLE_PLAIN
        case .dim: CK_STYLE_DIM
        case .title: CK_STYLE_TITLE
        case .button: CK_STYLE_BUTTON
        case .focus: CK_STYLE_FOCUS
        case .status: CK_STYLE_STATUS
        case .error: CK_STYLE_ERROR
        case .handled: CK_STYLE_HANDLED
        }
    }
}

extension Corner {
    var curses: ck_corner {
        switch self {
        case .topLeft: CK_CORNER_TOP_LEFT
        case .topRight: CK_CORNER_TOP_RIGHT
        case .bottomLeft: CK_CORNER_BOTTOM_LEFT
        case .bottomRight: CK_CORNER_BOTTOM_RIGHT
        }
    }
}
