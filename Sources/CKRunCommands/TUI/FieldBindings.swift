/// What a key does in a focused text field that has the keys (docs/tui.md): printable keys
/// and pasted text are text; the editing keys (`EditingKeys`, readline's, as at the command
/// line) edit; Enter and Esc leave; every other key (Tab, Up, Down, Page keys, a click) is the
/// view's (`KeyBindings`).
enum FieldCommand: Equatable {
    case edit(EditableText.Edit)
    /// Enter: the field's `editingDidEndOnExit`.
    case endOnExit
    /// Esc: the keys are the view's bindings again; the field keeps the focus.
    case release
}

enum FieldBindings {
    /// The field's own keys, besides the editing keys.
    static let field: [(key: Key, command: FieldCommand)] = [(.enter, .endOnExit), (.escape, .release)]

    static func command(for key: Key) -> FieldCommand? {
        field.first { $0.key == key }?.command ?? EditingKeys.edit(for: key).map(FieldCommand.edit)
    }

    /// Whether `c` is text for a field (not a control character).
    static func isText(_ c: Character) -> Bool { EditingKeys.isText(c) }

    /// The header's reminder while a field has the keys.
    static let help = "typing · Enter done · Esc view keys · Tab focus"
}
