import CCurses

/// A key or click, as the live view reads it from ncurses.
enum Key: Equatable, Hashable {
    case character(Character)
    case up, down, left, right, tab, backTab, enter, escape, backspace, delete, home, end, pageUp, pageDown
    case shiftPageUp, shiftPageDown
    /// Ctrl-Left, Ctrl-Right (terminfo's kLFT5, kRIT5): a word left and right in an editor.
    case controlLeft, controlRight
    /// The mouse's button pressed, and released (`click`): a tap when both are on one view.
    case press(row: Int, column: Int)
    case click(row: Int, column: Int)
    /// Alt (Option) with a key: the terminal sends ESC and the key, read as one (`CK_KEY_ALT`).
    case alt(Character)
    case resize
    /// The terminal's bracketed-paste marks: `KeyReader` makes what is between them text.
    case pasteStart, pasteEnd
    case other

    /// Ctrl-D: leaves, as at the REPL's prompt.
    static let endOfInput = Key.character("\u{4}")

    /// The keys typed since the last call (none waits); `KeyReader` reads them for the view.
    static func readAll() -> [Key] {
        var keys: [Key] = []
        while true {
            let k = ckcurses_input_read()
            if k.kind == CK_KEY_NONE { return keys }
            keys.append(Key(k))
        }
    }

    private static let kinds: [UInt32: Key] = [
        CK_KEY_UP.rawValue: .up, CK_KEY_DOWN.rawValue: .down, CK_KEY_LEFT.rawValue: .left,
        CK_KEY_RIGHT.rawValue: .right, CK_KEY_TAB.rawValue: .tab, CK_KEY_BACKTAB.rawValue: .backTab,
        CK_KEY_ENTER.rawValue: .enter, CK_KEY_ESCAPE.rawValue: .escape, CK_KEY_BACKSPACE.rawValue: .backspace,
        CK_KEY_DELETE.rawValue: .delete, CK_KEY_HOME.rawValue: .home, CK_KEY_END.rawValue: .end,
        CK_KEY_PAGE_UP.rawValue: .pageUp, CK_KEY_PAGE_DOWN.rawValue: .pageDown,
        CK_KEY_SHIFT_PAGE_UP.rawValue: .shiftPageUp, CK_KEY_SHIFT_PAGE_DOWN.rawValue: .shiftPageDown, CK_KEY_RESIZE.rawValue: .resize,
        CK_KEY_PASTE_START.rawValue: .pasteStart, CK_KEY_PASTE_END.rawValue: .pasteEnd,
        CK_KEY_CONTROL_LEFT.rawValue: .controlLeft, CK_KEY_CONTROL_RIGHT.rawValue: .controlRight,
    ]

    init(_ k: ck_key) {
        switch k.kind {
        case CK_KEY_CHAR: self = Unicode.Scalar(k.character).map { .character(Character($0)) } ?? .other
        case CK_KEY_ALT: self = Unicode.Scalar(k.character).map { .alt(Character($0)) } ?? .other
        case CK_KEY_PRESS: self = .press(row: Int(k.row), column: Int(k.column))
        case CK_KEY_CLICK: self = .click(row: Int(k.row), column: Int(k.column))
        default: self = Self.kinds[k.kind.rawValue] ?? .other
        }
    }
}

/// What a key does in the view (the command line closed): one table.
enum ViewCommand: Equatable {
    case focus(Focus.Move)
    case tap
    case openCommandLine
    case quit
    case scroll(pages: Int)
    case scrollOutput(pages: Int)
}

enum KeyBindings {
    static let view: [(key: Key, command: ViewCommand)] = [
        (.tab, .focus(.next)), (.backTab, .focus(.previous)),
        (.up, .focus(.toward(.up))), (.down, .focus(.toward(.down))),
        (.left, .focus(.toward(.left))), (.right, .focus(.toward(.right))),
        (.enter, .tap), (.character(" "), .tap),
        (.character(":"), .openCommandLine),
        (.character("q"), .quit), (Key.endOfInput, .quit),
        (.pageUp, .scroll(pages: -1)), (.pageDown, .scroll(pages: 1)),
        (.shiftPageUp, .scrollOutput(pages: -1)), (.shiftPageDown, .scrollOutput(pages: 1)),
    ]

    static func command(for key: Key) -> ViewCommand? { view.first { $0.key == key }?.command }

    /// The header's reminder of the table.
    static let help = "Tab/arrows focus · Enter tap · : command · q quit"
}
