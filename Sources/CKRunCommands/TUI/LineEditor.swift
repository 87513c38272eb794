/// The command line opened in place (`:`): one line of text with a cursor, and the history of
/// what was entered (Up, Down). What it holds is handed to the REPL as typed.
struct LineEditor {
    private(set) var text: [Character] = []
    private(set) var cursor = 0
    private var history: [String] = []
    /// Where Up and Down are in the history (`history.count`: the line being typed).
    private var recalled = 0
    private var draft: [Character] = []

    var line: String { String(text) }

    mutating func insert(_ c: Character) {
        text.insert(c, at: cursor)
        cursor += 1
    }

    mutating func backspace() {
        guard cursor > 0 else { return }
        cursor -= 1
        text.remove(at: cursor)
    }

    mutating func delete() { if cursor < text.count { text.remove(at: cursor) } }
    mutating func left() { cursor = max(0, cursor - 1) }
    mutating func right() { cursor = min(text.count, cursor + 1) }
    mutating func home() { cursor = 0 }
    mutating func end() { cursor = text.count }

    // The REPL's Emacs keys (libedit's): Ctrl-U, Ctrl-K, Ctrl-W, Alt-B, Alt-F.
    mutating func killToStart() {
        text.removeSubrange(..<cursor)
        cursor = 0
    }

    mutating func killToEnd() { text.removeSubrange(cursor...) }

    /// Ctrl-W: the blanks before the cursor, then the word before them.
    mutating func deleteWordBack() {
        let start = wordStart(before: cursor, isWord: { !$0.isWhitespace })
        text.removeSubrange(start..<cursor)
        cursor = start
    }

    mutating func wordLeft() { cursor = wordStart(before: cursor, isWord: Self.isWordCharacter) }

    mutating func wordRight() {
        var i = cursor
        while i < text.count, !Self.isWordCharacter(text[i]) { i += 1 }
        while i < text.count, Self.isWordCharacter(text[i]) { i += 1 }
        cursor = i
    }

    private func wordStart(before index: Int, isWord: (Character) -> Bool) -> Int {
        var i = index
        while i > 0, !isWord(text[i - 1]) { i -= 1 }
        while i > 0, isWord(text[i - 1]) { i -= 1 }
        return i
    }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// The text before the cursor (what Tab completes).
    var beforeCursor: String { String(text[..<cursor]) }

    /// Takes the line out (after Enter): the editor is empty again, the line kept in its history.
    mutating func take() -> String {
        let taken = line
        if !taken.isEmpty && history.last != taken { history.append(taken) }
        clear()
        return taken
    }

    mutating func clear() {
        text = []
        cursor = 0
        recalled = history.count
    }

    mutating func up() { recall(recalled - 1) }
    mutating func down() { recall(recalled + 1) }

    private mutating func recall(_ index: Int) {
        guard index >= 0, index <= history.count, index != recalled else { return }
        if recalled == history.count { draft = text }
        recalled = index
        text = index == history.count ? draft : Array(history[index])
        cursor = text.count
    }

    /// What shows in `columns` cells after `prompt`, scrolled so the cursor is visible, and the
    /// cursor's column in it.
    func shown(prompt: String, columns: Int) -> (text: String, cursor: Int) {
        let before = Cells.suffix(String(text[..<cursor]), fitting: max(0, columns - Cells.width(prompt) - 1))
        let after = Cells.prefix(String(text[cursor...]), fitting: max(0, columns - Cells.width(prompt) - Cells.width(before)))
        return (prompt + before + after, Cells.width(prompt) + Cells.width(before))
    }
}
