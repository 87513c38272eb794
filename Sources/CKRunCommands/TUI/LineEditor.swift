/// The command line opened in place (`:`): one line of text with a cursor, and the history of
/// what was entered (Up, Down). What it holds is handed to the REPL as typed.
struct LineEditor {
    /// The line being typed; its editing keys are `EditingKeys`' (a text field's too).
    private(set) var edited = EditableText("")
    private var history: [String] = []
    /// Where Up and Down are in the history (`history.count`: the line being typed).
    private var recalled = 0
    private var draft = ""

    var line: String { edited.text }
    var text: [Character] { edited.characters }
    var cursor: Int { edited.cursor }

    mutating func insert(_ c: Character) { edited.insert(String(c)) }
    mutating func apply(_ edit: EditableText.Edit) { edited.apply(edit) }

    mutating func backspace() { apply(.backspace) }
    mutating func delete() { apply(.delete) }
    mutating func left() { apply(.left) }
    mutating func right() { apply(.right) }
    mutating func home() { apply(.home) }
    mutating func end() { apply(.end) }

    /// The text before the cursor (what Tab completes).
    var beforeCursor: String { edited.beforeCursor }

    /// Takes the line out (after Enter): the editor is empty again, the line kept in its history.
    mutating func take() -> String {
        let taken = line
        if !taken.isEmpty && history.last != taken { history.append(taken) }
        clear()
        return taken
    }

    mutating func clear() {
        edited = EditableText("")
        recalled = history.count
    }

    mutating func up() { recall(recalled - 1) }
    mutating func down() { recall(recalled + 1) }

    private mutating func recall(_ index: Int) {
        guard index >= 0, index <= history.count, index != recalled else { return }
        if recalled == history.count { draft = line }
        recalled = index
        edited = EditableText(index == history.count ? draft : history[index])
    }

    /// What shows in `columns` cells after `prompt`, scrolled so the cursor is visible, and the
    /// cursor's column in it.
    func shown(prompt: String, columns: Int) -> (text: String, cursor: Int) {
        let before = Cells.suffix(edited.beforeCursor, fitting: max(0, columns - Cells.width(prompt) - 1))
        let after = Cells.prefix(edited.afterCursor, fitting: max(0, columns - Cells.width(prompt) - Cells.width(before)))
        return (prompt + before + after, Cells.width(prompt) + Cells.width(before))
    }
}
