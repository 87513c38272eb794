/// A line of text with a cursor, as the live view edits it: a text field's text, and the
/// command line's (`LineEditor` adds the history). Plain data; what each key does to it is
/// `EditingKeys`' table, the one both editors read.
struct EditableText: Equatable {
    private(set) var characters: [Character]
    /// Where the next character goes: 0 before the first, `characters.count` after the last.
    private(set) var cursor: Int

    init(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }
    var isEmpty: Bool { characters.isEmpty }
    var beforeCursor: String { String(characters[..<cursor]) }
    var afterCursor: String { String(characters[cursor...]) }

    /// What an editing key does (readline's names in `EditingKeys`).
    enum Edit: Equatable {
        case backspace, delete, left, right, home, end
        /// Ctrl-U, Ctrl-K: drop all before / after the cursor.
        case killToStart, killToEnd
        /// Ctrl-W, Alt-Backspace: the blanks before the cursor, then the word before them.
        case deleteWordBack
        /// Alt-D: to the end of the word after the cursor.
        case deleteWordForward
        /// Alt-B, Alt-F (Ctrl-Left, Ctrl-Right): to the start of the word before, the end of the next.
        case wordLeft, wordRight
    }

    mutating func insert(_ text: String) {
        Graphemes.insert(text, into: &characters, cursor: &cursor)
    }

    mutating func apply(_ edit: Edit) {
        switch edit {
        case .backspace:
            guard cursor > 0 else { return }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete: if cursor < characters.count { characters.remove(at: cursor) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .killToStart:
            characters.removeSubrange(..<cursor)
            cursor = 0
        case .killToEnd: characters.removeSubrange(cursor...)
        case .deleteWordBack:
            let start = wordStart(before: cursor, isWord: { !$0.isWhitespace })
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .deleteWordForward: characters.removeSubrange(cursor..<wordEnd(after: cursor))
        case .wordLeft: cursor = wordStart(before: cursor, isWord: Self.isWordCharacter)
        case .wordRight: cursor = wordEnd(after: cursor)
        }
    }

    /// A build gave the field `text` (its `text` attribute changed): the app's text wins, the
    /// cursor at its end; the same text as typed keeps the cursor where it is.
    mutating func rewrite(_ text: String) {
        if text != self.text { self = EditableText(text) }
    }

    private func wordStart(before index: Int, isWord: (Character) -> Bool) -> Int {
        var i = index
        while i > 0, !isWord(characters[i - 1]) { i -= 1 }
        while i > 0, isWord(characters[i - 1]) { i -= 1 }
        return i
    }

    private func wordEnd(after index: Int) -> Int {
        var i = index
        while i < characters.count, !Self.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, Self.isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}
