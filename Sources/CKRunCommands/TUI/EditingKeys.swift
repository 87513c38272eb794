/// The editing keys of the live view's command line and of a focused text field: readline's
/// (Emacs mode, as bash and the REPL's libedit take them), one table both read. Keys an editor
/// takes beyond these (Enter, Esc, Tab, Up and Down) are in its own bindings.
enum EditingKeys {
    static let table: [(key: Key, edit: EditableText.Edit)] = [
        (.backspace, .backspace), (.character("\u{7f}"), .backspace), (.character("\u{8}"), .backspace),
        (.delete, .delete), (Key.endOfInput, .delete),
        (.left, .left), (.right, .right), (.character("\u{2}"), .left), (.character("\u{6}"), .right),
        (.home, .home), (.end, .end), (.character("\u{1}"), .home), (.character("\u{5}"), .end),
        (.character("\u{15}"), .killToStart), (.character("\u{b}"), .killToEnd),
        (.character("\u{17}"), .deleteWordBack), (.alt("\u{7f}"), .deleteWordBack), (.alt("\u{8}"), .deleteWordBack),
        (.alt("d"), .deleteWordForward), (.alt("D"), .deleteWordForward),
        (.alt("b"), .wordLeft), (.alt("B"), .wordLeft), (.controlLeft, .wordLeft),
        (.alt("f"), .wordRight), (.alt("F"), .wordRight), (.controlRight, .wordRight),
    ]

    static func edit(for key: Key) -> EditableText.Edit? { table.first { $0.key == key }?.edit }

    /// Whether `c` is text for an editor (not a control character).
    static func isText(_ c: Character) -> Bool { c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
}
