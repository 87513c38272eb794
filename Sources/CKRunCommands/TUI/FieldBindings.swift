/// What a key does in a focused text field that has the keys (docs/tui.md): printable keys
/// and pasted text are text; these edit or leave; every other key (Tab, Up, Down, Page keys, a
/// click) is the view's (`KeyBindings`).
enum FieldCommand: Equatable {
    case edit(FieldText.Edit)
    /// Enter: the field's `editingDidEndOnExit`.
    case endOnExit
    /// Esc: the keys are the view's bindings again; the field keeps the focus.
    case release
}

enum FieldBindings {
    static let field: [(key: Key, command: FieldCommand)] = [
        (.backspace, .edit(.backspace)), (.character("\u{7f}"), .edit(.backspace)), (.character("\u{8}"), .edit(.backspace)),
        (.delete, .edit(.delete)),
        (.left, .edit(.left)), (.right, .edit(.right)), (.home, .edit(.home)), (.end, .edit(.end)),
        (.character("\u{1}"), .edit(.home)), (.character("\u{5}"), .edit(.end)),
        (.enter, .endOnExit), (.escape, .release),
    ]

    static func command(for key: Key) -> FieldCommand? { field.first { $0.key == key }?.command }

    /// Whether `c` is text for a field (not a control character).
    static func isText(_ c: Character) -> Bool { c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }

    /// The header's reminder while a field has the keys.
    static let help = "typing · Enter done · Esc view keys · Tab focus"
}
