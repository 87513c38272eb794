/// Where each part of the live view goes on a screen of `size`: a header row; the app's views
/// with the side panel (responder chain, trace) at their right when there is room; the output
/// of turns under them; the command line when open; the status line at the bottom.
struct ScreenRegions: Equatable {
    var header = Rect()
    var view = Rect()
    /// The side panel, and the column that separates it from the view.
    var panel: Rect?
    /// The output's lines, under a rule on the row above them.
    var output: Rect?
    var command: Rect?
    var status = Rect()

    /// The panel's share of a wide screen, and its bounds.
    static let panelMinimumScreen = 70
    static let panelWidth = (minimum: 26, maximum: 46)

    /// The output pane grows with the terminal: a quarter of its rows (at least 5 from 20 rows
    /// on, 2 from 12), so that an error's heading and its place fit on a tall screen; at most 12
    /// (it scrolls back): a 1,000-row terminal keeps its rows for the app.
    static func outputRows(height h: Int) -> Int {
        h >= 20 ? min(12, max(5, h / 4)) : h >= 12 ? 2 : 0
    }

    init(size: Size, commandOpen: Bool) {
        let w = size.width, h = max(size.height, 2)
        header = Rect(x: 0, y: 0, width: w, height: 1)
        status = Rect(x: 0, y: h - 1, width: w, height: 1)
        var bottom = h - 1
        if commandOpen {
            bottom -= 1
            command = Rect(x: 0, y: bottom, width: w, height: 1)
        }
        let outputRows = Self.outputRows(height: h)
        if outputRows > 0 {
            bottom -= outputRows
            output = Rect(x: 0, y: bottom, width: w, height: outputRows)
            bottom -= 1   // the rule above the output
        }
        let middle = max(0, bottom - 1)
        let panelWidth = w >= Self.panelMinimumScreen ? min(Self.panelWidth.maximum, max(Self.panelWidth.minimum, w / 3)) : 0
        if panelWidth > 0 {
            panel = Rect(x: w - panelWidth, y: 1, width: panelWidth, height: middle)
            view = Rect(x: 0, y: 1, width: w - panelWidth - 1, height: middle)
        } else {
            view = Rect(x: 0, y: 1, width: w, height: middle)
        }
    }
}
