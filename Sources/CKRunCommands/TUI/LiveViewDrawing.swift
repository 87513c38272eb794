import CCurses
import CKCore

/// Drawing the live view: the header, the app's views, the side panel, the output, the command
/// line and the status line, each in its region (`ScreenRegions`), then one update of the
/// terminal.
extension LiveView {
    var screenSize: Size { Size(width: Int(ckcurses_screen_columns()), height: Int(ckcurses_screen_rows())) }

    func redraw() {
        output.collect()
        let regions = ScreenRegions(size: screenSize, commandOpen: commandOpen)
        scene.resize(to: Size(width: regions.view.width, height: regions.view.height))
        ckcurses_screen_erase()
        drawHeader(regions.header)
        Painter(tree: scene.tree, frames: scene.frames, region: regions.view, top: scene.top, left: scene.left, focused: scene.focused).paint(on: canvas)
        if scene.tree.showsNoView { drawNothingShown(regions.view) }
        if let panel = regions.panel { drawPanel(panel) }
        if let pane = regions.output { drawOutput(pane) }
        drawStatus(regions.status)
        if let command = regions.command { drawCommand(command) } else { placeFieldCursor(in: regions.view) }
        ckcurses_screen_flush()
    }

    /// The status row alone (the clock's second went by): the tree is not painted again. The
    /// cursor goes back where the whole draw put it.
    func redrawStatus() {
        let regions = ScreenRegions(size: screenSize, commandOpen: commandOpen)
        drawStatus(regions.status)
        if let command = regions.command { drawCommand(command) } else { placeFieldCursor(in: regions.view) }
        ckcurses_screen_flush()
    }

    private func drawHeader(_ r: Rect) {
        let root = engine.appHost?.root?.label ?? "no app"
        let title = " ckrun · \(appName) · \(root)"
        write(title, y: r.y, x: r.x, width: r.width, .title)
        let help = (fieldHasKeys ? FieldBindings.help : KeyBindings.help) + " "
        let helpWidth = Cells.width(help)
        if Cells.width(title) + 2 + helpWidth <= r.width { write(help, y: r.y, x: r.maxX - helpWidth, width: helpWidth, .dim) }
    }

    /// An app whose components make no view (or no app) would leave the area blank: say why.
    private func drawNothingShown(_ r: Rect) {
        let lines = nothingShown(engine.appHost)
        for (i, line) in lines.enumerated() where i < r.height { write(line, y: r.y + i, x: r.x, width: r.width, .dim) }
    }

    /// Why the area is blank: no app, a destroyed or unmounted one, or one without views.
    private func nothingShown(_ host: Host?) -> [String] {
        guard let host else { return ["No app is mounted."] }
        if host.isDestroyed { return ["The app's host was destroyed (app:destroy()).", "Start ckrun on the app again to see it."] }
        if !host.isMounted { return ["The app is not mounted (app:unmount()).", "Press : and type app:mount() to mount it again."] }
        guard let root = host.root else { return ["The app is mounted and shows nothing: its provider returned nil."] }
        return ["\(root.label) shows nothing: its components make no views.", "Press : and type .tree to list them."]
    }

    private func drawPanel(_ r: Rect) {
        canvas.line(y: r.y, x: r.x - 1, length: r.height, vertical: true, style: .dim)
        let lines = SidePanel.lines(focused: focused, scrolledAway: scene.scrolledAway, trace: trace, width: r.width - 1, height: r.height)
        for (i, line) in lines.enumerated() {
            write(line.text, y: r.y + i, x: r.x + 1, width: r.width - 1, line.style)
        }
    }

    private func drawOutput(_ r: Rect) {
        canvas.line(y: r.y - 1, x: r.x, length: r.width, vertical: false, style: .dim)
        // Long lines wrap (an error's advice is at its end); only the rows shown and those
        // scrolled past are wrapped. Scrolled back (Shift-Page Up), the rule says how far.
        let wanted = r.height + outputBack
        let rows = SidePanel.wrap(output.shownLines.suffix(wanted).map { ($0, CellStyle.plain) }, r.width, rows: wanted)
        outputBack = min(outputBack, max(0, rows.count - r.height))
        let title = outputBack > 0 ? " output (\(outputBack) rows back: Shift-Page Down) " : " output "
        write(title, y: r.y - 1, x: r.x + 2, width: r.width - 2, .dim)
        for (i, line) in rows.dropLast(outputBack).suffix(r.height).enumerated() {
            write(line.text, y: r.y + i, x: r.x, width: r.width, .plain)
        }
    }

    private func drawStatus(_ r: Rect) {
        canvas.fill(y: r.y, x: r.x, width: r.width, style: .status)
        let loop = engine.runtime.loop
        // The running wall clock in whole seconds: a redraw each second keeps it true (tick).
        shownSecond = clock.mode == .wall && !clock.isPaused ? clock.wallNow.rounded(.down) : nil
        let info = StatusLine.Info(generation: engine.appHost?.generation, clock: clock.mode.rawValue,
                                   seconds: shownSecond ?? (clock.mode == .wall ? clock.wallNow : loop.now), paused: clock.isPaused,
                                   pendingTimers: loop.pendingTimers, lastError: lastError)
        var x = r.x
        for segment in StatusLine.segments(info) where x < r.maxX {
            x += write(segment.text, y: r.y, x: x, width: r.maxX - x, segment.style)
        }
    }

    private func drawCommand(_ r: Rect) {
        let shown = editor.shown(prompt: prompt, columns: r.width)
        write(shown.text, y: r.y, x: r.x, width: r.width, .plain)
        ckcurses_screen_cursor(Int32(r.y), Int32(r.x + shown.cursor), 1)
    }

    /// Writes what of `text` fits in `width` cells; returns the cells used.
    @discardableResult
    private func write(_ text: String, y: Int, x: Int, width: Int, _ style: CellStyle) -> Int {
        let shown = Cells.prefix(text, fitting: width)
        if !shown.isEmpty { canvas.text(shown, y: y, x: x, style: style) }
        return Cells.width(shown)
    }
}
