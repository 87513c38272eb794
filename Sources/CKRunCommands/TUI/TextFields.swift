import CKCore

/// What the user typed into the live view's text fields, kept per mounted view (its `View`
/// object: the one a build keeps while the component stays) as long as the view is in the tree.
/// A field shows its `text` attribute as the last build gave it plus the edits since; the edits
/// stand until a build gives the view a `text` different from the one it had (ComponentKit
/// applies an attribute only when it changed): a controlled field (`text = state.draft`) shows
/// the app's text, an uncontrolled one keeps what was typed across unrelated builds.
struct TextFields {
    /// The view class drawn and edited as a text field.
    static let viewClass = "UITextField"

    private struct Entry {
        /// Held while the view is in the tree, so its identifier names no other view meanwhile.
        let view: View
        var attribute: String
        var text: EditableText
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    /// The field the focus was on when the tree was last read.
    var editing: View?
    /// The field whose `editingDidBegin` was sent and whose `editingDidEnd` was not yet.
    var begun: View?
    /// Esc let the focused field go of the keys: they are the view's bindings until typing or
    /// Enter on it, or the focus moving.
    var released = false
    /// A build took the focus from a field that had the keys to a view that is not a field:
    /// printable keys typed on before the screen showed it (read with the key that made the
    /// build) are dropped (they were typed as text, never view keys) until a key that is not
    /// text; the view's next wait, once it drew the screen, ends it.
    var typingCarried = false

    /// Puts each field's text as typed in `tree`'s place of its attribute; forgets the views no
    /// longer in it.
    mutating func apply(to tree: inout LiveTree, _ components: [Component]) {
        var kept: [ObjectIdentifier: Entry] = [:]
        for i in 0..<tree.count {
            guard case .field(var field) = tree[i].kind, let view = components[tree[i].tag].view else { continue }
            let attribute = field.before
            var entry = entries[ObjectIdentifier(view)] ?? Entry(view: view, attribute: attribute, text: EditableText(attribute))
            if field.controlled || entry.attribute != attribute {
                entry.attribute = attribute
                entry.text.rewrite(attribute)
            }
            kept[ObjectIdentifier(view)] = entry
            field.before = Self.shown(entry.text.beforeCursor)
            field.after = Self.shown(entry.text.afterCursor)
            tree.setKind(.field(field), of: i)
        }
        entries = kept
        if let editing, kept[ObjectIdentifier(editing)] == nil {
            if !released { typingCarried = true }   // a field that had the keys went
            self.editing = nil
        }
        if let begun, kept[ObjectIdentifier(begun)] == nil { self.begun = nil }   // gone: no End
    }

    /// Text as a field shows it: its carried bytes (`ByteText`) decoded, each invalid sequence
    /// U+FFFD, control characters as `Cells.sanitized` shows them.
    static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: ByteText.isCarried) else { return Cells.sanitized(text) }
        return Cells.sanitized(String(decoding: ByteText.bytes(of: text), as: UTF8.self))
    }

    /// The text of `view`'s field as typed (its bytes carried).
    func text(of view: View) -> EditableText? { entries[ObjectIdentifier(view)]?.text }

    /// Changes `view`'s text; returns whether the text (not only the cursor) changed.
    mutating func edit(_ view: View, _ change: (inout EditableText) -> Void) -> Bool {
        guard var entry = entries[ObjectIdentifier(view)] else { return false }
        let before = entry.text.text
        change(&entry.text)
        entries[ObjectIdentifier(view)] = entry
        return entry.text.text != before
    }
}
