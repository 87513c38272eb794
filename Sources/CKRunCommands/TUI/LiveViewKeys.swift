import CKCore
import CKLua

/// What keys and clicks do in the live view: move the focus, tap, scroll, open the command
/// line and edit it (`KeyBindings` says which key does what).
extension LiveView {
    /// An input for the run, if what was read makes one (a tap, a line, the end). Text goes to
    /// the command line alone (opening it); only keys reach the view's bindings.
    func handle(_ input: LiveInput) -> InputEvent? {
        switch input {
        case .key(let key): return handle(key)
        case .text(let text):
            let owed = fieldSync()
            if case .handled(let event) = fieldPaste(text) { return Self.joined(owed, event) }
            if let owed { pendingKeys.insert(input, at: 0); return owed }
            return type(text)
        }
    }

    /// A key's sends, after the `editingDidEnd`/`editingDidBegin` a build's focus change owes.
    private func handle(_ key: Key) -> InputEvent? {
        if key == .resize {
            resized()
            return nil
        }
        let owed = fieldSync()
        return Self.joined(owed, handleKey(key))
    }

    private func handleKey(_ key: Key) -> InputEvent? {
        if commandOpen { return commandLine(key) }
        if case .press(let row, let column) = key { return press(row: row, column: column) }
        let command = KeyBindings.command(for: key)
        if case .handled(let event) = fieldKey(key, viewCommand: command) { return event }
        if case .click(let row, let column) = key { return click(row: row, column: column) }
        switch command {
        case .focus(let move)?:
            scene.move(move, key: focusKey)
            focusChanged()
            return fieldFocusMoved()
        case .tap?: return tap()
        case .openCommandLine?: commandOpen = true
        case .quit?: return .end
        case .scroll(let pages)?:
            scene.scroll(pages: pages, key: focusKey)
            focusChanged()
            return fieldFocusMoved()
        case .scrollOutput(let pages)?: scrollOutput(pages: pages)
        case nil: break
        }
        return nil
    }

    /// A press remembers the focusable view under it; the release taps nothing else.
    private func press(row: Int, column: Int) -> InputEvent? {
        pressed = focusable(atRow: row, column: column).map(focusKey)
        return nil
    }

    /// A release on the focusable view the press was on (as UIKit's touchUpInside: a press
    /// dragged off to another view and released there taps neither) focuses and taps it.
    private func click(row: Int, column: Int) -> InputEvent? {
        defer { pressed = nil }
        guard let node = focusable(atRow: row, column: column), let pressed, focusKey(node) == pressed else { return nil }
        scene.focus(node, key: focusKey)
        focusChanged()
        // A text field clicked takes the keys; anything else is tapped too.
        if focusedField != nil { fields.released = false }   // a field clicked takes the keys
        let moved = fieldFocusMoved()
        return Self.joined(moved, focusedField == nil ? tap() : nil)
    }

    /// The focusable view at a point of the screen, if any.
    private func focusable(atRow row: Int, column: Int) -> Int? {
        let view = ScreenRegions(size: screenSize, commandOpen: commandOpen).view
        guard view.intersects(Rect(x: column, y: row, width: 1, height: 1)) else { return nil }
        return scene.focusable(atRow: row - view.y, column: column - view.x)
    }

    /// The tap on the focused view, as a turn for the run: what `host:tap` sends, traced for the
    /// side panel.
    private func tap() -> InputEvent? {
        guard let node = scene.focused, let host = engine.appHost else { return nil }
        let component = components[scene.tree[node].tag]
        let tapped = tappedName(node, component)
        if sendsValueChangedForTap(component) { return controlEvent("valueChanged", of: component, text: nil) }
        return .turn { [unowned self] turn throws(LuaError) in
            var entries: [Tracer.Entry] = []
            var failure: LuaError?
            do throws(LuaError) { _ = try turn.tap(component, of: host, trace: &entries) } catch { failure = error }
            trace = TapTrace.lines(tapped: tapped, entries: entries, error: failure?.description, describe: { (try? turn.describe($0)) ?? "…" })
            tapAwaitsBuild = true
            if let failure { throw failure }
        }
    }

    private func tappedName(_ node: Int, _ component: Component) -> String {
        if case .button(let title) = scene.tree[node].kind { return "[ \(title) ] (\(component.label))" }
        return component.label
    }

    /// Text typed into the command line (opened for it): each newline hands a line over as
    /// Enter does; what follows it waits as text for the next read of `pendingKeys`.
    private func type(_ text: String) -> InputEvent? {
        if !commandOpen {
            commandOpen = true
            prompt = replPrompt()
        }
        guard let newline = text.firstIndex(of: "\n") else {
            text.forEach { editor.insert($0) }
            return nil
        }
        text[..<newline].forEach { editor.insert($0) }
        let rest = String(text[text.index(after: newline)...])
        if !rest.isEmpty { pendingKeys.insert(.text(rest), at: 0) }
        return enter()
    }

    /// Hands the command line's text over as a line. Keys read with the Enter (a burst: a paste
    /// into a terminal without bracketed paste) are text from here on, for the command line.
    private func enter() -> InputEvent? {
        // The transcript in the output pane shows what was entered, as a terminal would.
        let line = editor.take()
        ProcessOutput.out(prompt + line + "\n")
        awaitingPrompt = true
        pendingKeys += reader.readAll()   // what has arrived by now came with the Enter
        if pendingKeys.contains(where: { if case .key = $0 { true } else { false } }) {
            let text = LiveInput.text(of: pendingKeys)
            pendingKeys = (text.isEmpty ? [] : [.text(text)]) + pendingKeys.filter { $0 == .key(.resize) }
        }
        // The bytes typed: those the keys carried escaped are put back (ckcurses_input.c).
        return .line(EditorBytes.restored(Array(line.utf8)))
    }

    /// A key while the command line is open: editing, history, Enter hands the line over,
    /// Escape (or Ctrl-D on an empty line) closes it.
    private func commandLine(_ key: Key) -> InputEvent? {
        switch key {
        case .enter: return enter()
        case .escape: closeCommandLine()
        case Key.endOfInput where editor.text.isEmpty: closeCommandLine()
        case .character(let c) where EditingKeys.isText(c): editor.insert(c)
        case .up: editor.up()
        case .down: editor.down()
        case .tab: complete()
        case .pageUp, .shiftPageUp: scrollOutput(pages: -1)
        case .pageDown, .shiftPageDown: scrollOutput(pages: 1)
        default:
            // The editing keys (a text field's too); another Alt key, a control key: nothing,
            // never a view key.
            if let edit = EditingKeys.edit(for: key) { editor.apply(edit) }
        }
        return nil
    }

    /// Scrolls the output pane back (toward older lines) or forward by a page less a row; at
    /// its end it follows new output again.
    func scrollOutput(pages: Int) {
        let rows = ScreenRegions(size: screenSize, commandOpen: commandOpen).output?.height ?? 0
        outputBack = max(0, outputBack - pages * max(1, rows - 1))
        needsDraw = true
    }

    /// Tab: the REPL's completion (`Completion`) of the expression before the cursor; the
    /// candidates' common part is inserted, and when several remain they are listed in the
    /// output pane, as libedit lists them below the line.
    private func complete() {
        let expression = Completion.expression(before: Array(editor.beforeCursor.utf8))
        let candidates = Completion.compute(expression)
        guard let first = candidates.first else { return }
        var common = Array(first)
        for candidate in candidates.dropFirst() {
            common = Array(zip(common, candidate).prefix { $0 == $1 }.map(\.0))
        }
        let typed = Array(expression)
        if common.count > typed.count, common.starts(with: typed) { common[typed.count...].forEach { editor.insert($0) } }
        if candidates.count > 1 { ProcessOutput.out(candidates.joined(separator: "  ") + "\n") }
    }

    /// Closes the command line, dropping what was typed and any incomplete input.
    func closeCommandLine() {
        editor.clear()
        commandOpen = false
        if replPrompt() != "> " { dropPending() }
        prompt = replPrompt()
    }
}
