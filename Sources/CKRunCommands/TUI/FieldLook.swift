/// How the live view draws a text field (`LiveTree.Field`): `[ text ]` on one row, the
/// placeholder dimmed while the text is empty, `[▸text◂]` with the focus (seen without colour,
/// as a button's is). Text longer than the room scrolls to keep the cursor in view.
enum FieldLook {
    /// The text's room: at least this many cells, and at most `widest` unless the layout
    /// stretches the field (what is longer scrolls).
    static let narrowest = 10, widest = 40
    /// The brackets and the focus marks around the text.
    static let frame = 4

    static func naturalWidth(_ field: LiveTree.Field) -> Int {
        let wanted = max(Cells.width(field.before + field.after) + 1, Cells.width(field.placeholder))
        return frame + min(widest, max(narrowest, wanted))
    }

    /// The row's pieces at their columns from the field's left edge, and the cursor's column.
    static func pieces(_ field: LiveTree.Field, width: Int, focus: Bool) -> (pieces: [(x: Int, text: String, style: CellStyle)], cursor: Int) {
        let room = max(1, width - frame)
        let edge: CellStyle = focus ? .focus : .button
        var pieces: [(x: Int, text: String, style: CellStyle)] = [(0, focus ? "[▸" : "[ ", edge)]
        let cursor: Int
        if field.before.isEmpty && field.after.isEmpty {
            let shown = Cells.prefix(field.placeholder, fitting: room)
            pieces.append((2, shown + String(repeating: " ", count: room - Cells.width(shown)), .dim))
            cursor = 2
        } else {
            let before = Cells.suffix(field.before, fitting: room - 1)
            let after = Cells.prefix(field.after, fitting: room - Cells.width(before))
            let used = Cells.width(before) + Cells.width(after)
            pieces.append((2, before + after + String(repeating: " ", count: max(0, room - used)), edge))
            cursor = 2 + Cells.width(before)
        }
        pieces.append((2 + room, focus ? "◂]" : " ]", edge))
        return (pieces, cursor)
    }
}
