@testable import CKRunCommands
import Testing

@Suite("The live view's regions, status line and command line (no terminal)")
struct LiveChromeTests {
    @Test func aWideScreenHasASidePanelAndANarrowOneNone() {
        let wide = ScreenRegions(size: Size(width: 120, height: 40), commandOpen: true)
        #expect(wide.panel == Rect(x: 80, y: 1, width: 40, height: 26))
        #expect(wide.view == Rect(x: 0, y: 1, width: 79, height: 26))
        #expect(wide.output == Rect(x: 0, y: 28, width: 120, height: 10), "a quarter of the rows")
        #expect(wide.command == Rect(x: 0, y: 38, width: 120, height: 1))
        #expect(wide.status == Rect(x: 0, y: 39, width: 120, height: 1))
        let narrow = ScreenRegions(size: Size(width: 50, height: 10), commandOpen: false)
        #expect(narrow.panel == nil && narrow.output == nil && narrow.command == nil)
        #expect(narrow.view == Rect(x: 0, y: 1, width: 50, height: 8))
    }

    @Test func theStatusLineSaysGenerationClockTimersAndTheLastError() {
        let info = StatusLine.Info(generation: 3, clock: "virtual", seconds: 2.25, paused: true, pendingTimers: 1,
                                   lastError: "[timerFailed] app.lua:4: a timer set here failed\nstack traceback:")
        let text = StatusLine.segments(info).map(\.text).joined()
        #expect(text == " last error: [timerFailed] app.lua:4: a timer set here failed · generation 3 · virtual clock 2.3 s (paused) · 1 timer pending")
        #expect(StatusLine.segments(StatusLine.Info()).map(\.text).joined() == " no app · wall clock 0 s · 0 timers pending · no errors")
    }

    /// Terminal attack, break 10: a build error's heading was cut before its id's place (the
    /// component path), in a pane of 5 rows on any screen and on the status line.
    @Test func aBuildErrorsComponentComesFirstAndThePaneGrowsWithTheScreen() {
        let error = "[buildFailed] building generation 3 for a state update raised in the render of Root/Stack/Mid/Stack/Leaf; the build was rolled back\napp.lua:2: attempt to index a nil value"
        #expect(ErrorHeadline.of(error) == "[buildFailed] Root/Stack/Mid/Stack/Leaf: building generation 3 for a state update raised in its render; the build was rolled back")
        let text = StatusLine.segments(StatusLine.Info(generation: 2, lastError: error)).map(\.text).joined()
        #expect(text.hasPrefix(" last error: [buildFailed] Root/Stack/Mid/Stack/Leaf: "))
        #expect(ScreenRegions(size: Size(width: 100, height: 50), commandOpen: false).output?.height == 12)
        #expect(ScreenRegions(size: Size(width: 100, height: 20), commandOpen: false).output?.height == 5)
    }

    @Test func theCommandLineEditsAndRemembers() {
        var line = LineEditor()
        for c in "=1+2" { line.insert(c) }
        line.home()
        line.right()
        line.delete()
        #expect(line.line == "=+2")
        #expect(line.take() == "=+2")
        for c in "ab" { line.insert(c) }
        line.up()
        #expect(line.line == "=+2")
        line.down()
        #expect(line.line == "ab", "the line being typed comes back")
        let shown = line.shown(prompt: "> ", columns: 6)
        #expect(shown.text == "> ab" && shown.cursor == 4)
    }
}

@Suite("The live view's side panel (no terminal)")
struct SidePanelTests {
    let focused = SidePanel.Focused(label: "Button", path: "List/Stack/Row#2/Stack/Button",
                                    chain: ["Button", "Stack", "Row#2", "RowController", "Stack", "List", "HostingView", "nil"])

    @Test func longLinesWrapAtSlashesAndSpacesAndTheChainGivesWayToTheTrace() {
        let trace: [SidePanel.Line] = [("Last tap: [ Go ]", .title), (" go from Button", .plain), ("  ✓ RowController handled it", .handled)]
        let lines = SidePanel.lines(focused: focused, trace: trace, width: 20, height: 16).map(\.text)
        #expect(lines == [
            "Focused: Button", " List/Stack/Row#2/", "   Stack/Button", "", "Responder chain",
            " Button", " → Stack", " → Row#2", " → RowController", "   … 3 more", " → nil",
            "", "Last tap: [ Go ]", " go from Button", "  ✓ RowController ", "   handled it",
        ])
    }

    @Test func withRoomTheWholeChainShows() {
        let lines = SidePanel.lines(focused: focused, trace: [], width: 40, height: 30).map(\.text)
        #expect(lines.count == 4 + 8)
        #expect(lines.last == " → nil")
    }
}
