/// A text field's text as the live view edits it: its characters and a cursor among them.
/// Plain data (the command line's `LineEditor` is the other editor: it has a history and the
/// REPL's keys, a field has neither).
struct FieldText: Equatable {
    private(set) var characters: [Character]
    /// Where the next character goes: 0 before the first, `characters.count` after the last.
    private(set) var cursor: Int

    init(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }
    var beforeCursor: String { String(characters[..<cursor]) }
    var afterCursor: String { String(characters[cursor...]) }

    /// What a key does to the text or the cursor (`FieldBindings`).
    enum Edit: Equatable { case backspace, delete, left, right, home, end }

    mutating func insert(_ text: String) {
        let added = Array(text)
        characters.insert(contentsOf: added, at: cursor)
        cursor += added.count
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
        }
    }

    /// A build gave the field `text` (its `text` attribute changed): the app's text wins, the
    /// cursor at its end; the same text as typed keeps the cursor where it is.
    mutating func rewrite(_ text: String) {
        if text != self.text { self = FieldText(text) }
    }
}
