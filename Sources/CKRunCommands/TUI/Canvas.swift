#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What the live view draws on: cells in rows and columns. The terminal (`CursesCanvas`) is
/// one; `TextCanvas` keeps the cells as text, for tests and for anything that wants the screen
/// as a string.
protocol Canvas: AnyObject {
    /// Writes `text` (already clipped to fit) from (y, x).
    func text(_ text: String, y: Int, x: Int, style: CellStyle)
    /// A line-drawing line of `length` cells from (y, x), down or right.
    func line(y: Int, x: Int, length: Int, vertical: Bool, style: CellStyle)
    func corner(_ corner: Corner, y: Int, x: Int, style: CellStyle)
    /// Blanks `width` cells of row y from x, in `style` (a status bar).
    func fill(y: Int, x: Int, width: Int, style: CellStyle)
}

/// What a cell is drawn as, by purpose; the terminal maps each to attributes and, when colour
/// is on, a colour (`ckcurses_screen.c`).
enum CellStyle: Equatable {
    case plain, dim, title, button, focus, status, error, handled
}

enum Corner: CaseIterable { case topLeft, topRight, bottomLeft, bottomRight }

/// Cells kept as characters: line drawing as `─ │ ┌ ┐ └ ┘`, styles dropped.
final class TextCanvas: Canvas {
    private(set) var rows: [[Character]]
    let size: Size

    init(_ size: Size) {
        self.size = size
        rows = [[Character]](repeating: [Character](repeating: " ", count: size.width), count: size.height)
    }

    /// The rows, trailing blanks dropped, as `tmux capture-pane` gives them.
    var lines: [String] {
        rows.map { String($0.filter { $0 != Self.continuation }).trimmingTrailingWhitespace() }
    }

    /// The cell after a two-cell character.
    private static let continuation: Character = "\u{0}"


    func text(_ text: String, y: Int, x: Int, style: CellStyle) {
        var column = x
        for c in Cells.drawn(text) {
            put(c, y, column)
            let w = Cells.width(c)
            for k in stride(from: 1, to: w, by: 1) { put(Self.continuation, y, column + k) }
            column += max(w, 1)
        }
    }

    func line(y: Int, x: Int, length: Int, vertical: Bool, style: CellStyle) {
        for i in 0..<max(0, length) { vertical ? put("│", y + i, x) : put("─", y, x + i) }
    }

    func corner(_ corner: Corner, y: Int, x: Int, style: CellStyle) {
        let glyphs: [Corner: Character] = [.topLeft: "┌", .topRight: "┐", .bottomLeft: "└", .bottomRight: "┘"]
        put(glyphs[corner]!, y, x)
    }

    func fill(y: Int, x: Int, width: Int, style: CellStyle) {
        for i in 0..<max(0, width) { put(" ", y, x + i) }
    }

    private func put(_ c: Character, _ y: Int, _ x: Int) {
        guard y >= 0, y < size.height, x >= 0, x < size.width else { return }
        rows[y][x] = c
    }
}
