import CCurses
import CKCore
import CKLua

/// Text entry in the live view (docs/tui.md): the focused text field takes typed keys and
/// pasted text (`FieldBindings`), each change sending its `editingChanged` control actions
/// with the Event's `text`; the focus arriving on a field or leaving it sends `editingDidBegin`
/// and `editingDidEnd`.
extension LiveView {
    /// Whether a key or text was the focused field's, and the turn it makes.
    enum FieldInput {
        case notForField
        case handled(InputEvent?)
    }

    /// The focused node when it is a text field: its component and view.
    var focusedField: (component: Component, view: View)? {
        guard let node = scene.focused, case .field = scene.tree[node].kind else { return nil }
        let component = components[scene.tree[node].tag]
        return component.view.map { (component, $0) }
    }

    /// Whether typed keys go to the focused field now (the header and the cursor say so).
    var fieldHasKeys: Bool { focusedField != nil && !fields.released && !commandOpen }

    /// A key for the focused field (`viewCommand`: what the view's bindings say it does).
    /// Released (Esc), the view's bindings come first; Enter, Space or an unbound printable key
    /// gives the field the keys again (the key typed).
    func fieldKey(_ key: Key, viewCommand: ViewCommand?) -> FieldInput {
        if fields.typingCarried {
            if case .character(let c) = key, FieldBindings.isText(c) { return .handled(nil) }
            fields.typingCarried = false
        }
        guard let field = focusedField else { return .notForField }
        if fields.released {
            switch (viewCommand, key) {
            case (.tap?, _):
                fields.released = false
                return .handled(fieldSync())
            case (nil, .character(let c)) where FieldBindings.isText(c): fields.released = false
            default: return .notForField
            }
        }
        if case .character(let c) = key, FieldBindings.isText(c) { return .handled(change(field) { $0.insert(String(c)) }) }
        // Ctrl-D deletes the character under the cursor while there is text (readline); on an
        // empty field it leaves, as elsewhere.
        if key == Key.endOfInput, fields.text(of: field.view)?.isEmpty != false { return .notForField }
        switch FieldBindings.command(for: key) {
        case .edit(let edit)?: return .handled(change(field) { $0.apply(edit) })
        case .endOnExit?:
            // UIKit's Return: EndOnExit, then the field resigns (End) and the keys are the view's.
            let exit = Self.joined(fieldSync(), fieldEvent("editingDidEndOnExit", field))
            fields.released = true
            return .handled(Self.joined(exit, fieldSync()))
        case .release?:
            fields.released = true
            return .handled(fieldSync())
        case nil: return .notForField
        }
    }

    /// Pasted text for the focused field: one change, line breaks and tabs made spaces,
    /// other control characters dropped.
    func fieldPaste(_ text: String) -> FieldInput {
        guard !commandOpen, let field = focusedField else { return .notForField }
        fields.released = false
        let flat = Self.flattened(text)
        return .handled(flat.isEmpty ? nil : change(field) { $0.insert(flat) })
    }

    /// A paste as one line: a run of line breaks (a CRLF, which terminals paste as CR CR) is one
    /// space, a tab a space, other control characters dropped.
    static func flattened(_ text: String) -> String {
        var out = "", inBreak = false
        for c in text {
            let isBreak = c.unicodeScalars.allSatisfy { $0 == "\r" || $0 == "\n" }
            if isBreak, !inBreak { out.append(" ") }
            inBreak = isBreak
            if isBreak { continue }
            if c == "\t" { out.append(" ") } else if FieldBindings.isText(c) { out.append(c) }
        }
        return out
    }

    /// Applies `edit` to the field; a change of its text sends `editingChanged` with it.
    private func change(_ field: (component: Component, view: View), _ edit: (inout EditableText) -> Void) -> InputEvent? {
        let began = fieldSync()
        let changed = fields.edit(field.view, edit)
        treeIsStale = true   // drawn again from the tree with the edit in place
        return Self.joined(began, changed ? fieldEvent("editingChanged", field) : nil)
    }

    /// A turn sending `field`'s control actions for `name`, the Event's `text` its whole text;
    /// nil when it has none for `name`.
    private func fieldEvent(_ name: String, _ field: (component: Component, view: View)) -> InputEvent? {
        let text = fields.text(of: field.view)?.text ?? ""
        return controlEvent(name, of: field.component, text: text)
    }

    /// A turn sending `component`'s control actions for `name`, traced for the side panel as a
    /// tap is; nil when its view has none for `name`.
    func controlEvent(_ name: String, of component: Component, text: String?) -> InputEvent? {
        guard let view = component.view, !view.sends(for: .control(name)).isEmpty, let host = engine.appHost else { return nil }
        return .turn { [unowned self] turn throws(LuaError) in
            var entries: [Tracer.Entry] = []
            var failure: LuaError?
            do throws(LuaError) { _ = try turn.controlEvent(component, name, text: text, of: host, trace: &entries) } catch { failure = error }
            trace = TapTrace.lines(tapped: "\(name) (\(component.label))", entries: entries, error: failure?.description,
                                   describe: { (try? turn.describe($0)) ?? "…" })
            if let failure { throw failure }
        }
    }

    /// `editingDidEnd` to the field that had the keys and no longer has them (its focus moved,
    /// Esc, Enter; not one a build removed), `editingDidBegin` to the one that has them now (its
    /// focus arrived by a key or a click, by a build or at the start: then sent before the next
    /// key's own sends). Exactly one End after each Begin while the field stays mounted.
    func fieldSync() -> InputEvent? {
        let now = fieldHasKeys ? focusedField?.view : nil
        guard now !== fields.begun else { return nil }
        let left = fields.begun.flatMap { view in view.component.map { ($0, view) } }
        fields.begun = now
        let ended = left.flatMap { controlEvent("editingDidEnd", of: $0.0, text: fields.text(of: $0.1)?.text) }
        let began = now.flatMap { view in view.component.flatMap { controlEvent("editingDidBegin", of: $0, text: fields.text(of: view)?.text) } }
        return Self.joined(ended, began)
    }

    /// After the focus moved by a key or a click: a field arrived on has the keys.
    func fieldFocusMoved() -> InputEvent? {
        let now = focusedField?.view
        if now !== fields.editing {
            fields.editing = now
            fields.released = false
        }
        return fieldSync()
    }

    /// After a build: the field the build left the focus on is the one a key or click leaves
    /// next (no event: only keys and clicks send them).
    func fieldFocusSettled() {
        let now = focusedField?.view
        guard now !== fields.editing else { return }
        if fields.editing != nil, !fields.released, now == nil { fields.typingCarried = true }
        if now != nil { fields.typingCarried = false }   // the typing goes on in the field the focus landed on
        fields.editing = now
        fields.released = false
    }

    /// Two turns' sends as one turn, in order.
    static func joined(_ first: InputEvent?, _ second: InputEvent?) -> InputEvent? {
        guard case .turn(let a)? = first else { return second }
        guard case .turn(let b)? = second else { return first }
        return .turn { turn throws(LuaError) in
            try a(turn)
            try b(turn)
        }
    }

    /// What Enter and Space send on a focused control: what `host:tap` sends, and when that is
    /// nothing, its `valueChanged` control actions (a switch).
    func sendsValueChangedForTap(_ component: Component) -> Bool {
        guard let view = component.view else { return false }
        return Gesture.hostTap.allSatisfy { view.sends(for: $0).isEmpty } && !view.sends(for: .control("valueChanged")).isEmpty
    }

    /// The terminal's cursor on the focused field's cursor while it has the keys; hidden else.
    func placeFieldCursor(in region: Rect) {
        guard fieldHasKeys, let node = scene.focused, case .field(let field) = scene.tree[node].kind else {
            return ckcurses_screen_cursor(0, 0, 0)
        }
        let frame = scene.frames[node]
        let y = region.y + frame.y - scene.top
        let x = region.x + frame.x - scene.left + FieldLook.pieces(field, width: frame.width, focus: true).cursor
        guard y >= region.y, y < region.maxY, x >= region.x, x < region.maxX else { return ckcurses_screen_cursor(0, 0, 0) }
        ckcurses_screen_cursor(Int32(y), Int32(x), 1)
    }
}
