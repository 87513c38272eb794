@testable import CKRunCommands
import CKCore
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

    /// A build error leads with the render's own message and file:line (the outsider's apps
    /// attack, 01: the status line showed only the heading, cut), then the heading's words as
    /// the runtime wrote them; the pane grows with the screen (terminal attack, break 10).
    @Test func aBuildErrorsRenderMessageComesFirstAndThePaneGrowsWithTheScreen() {
        let error = "[buildFailed] building generation 3 for a state update raised in the render of Root/Stack/Mid/Stack/Leaf; the build was rolled back\napp.lua:2: attempt to index a nil value\nstack traceback:\n\t[C]: in ?"
        #expect(ErrorHeadline.of(error) == "[buildFailed] app.lua:2: attempt to index a nil value — building generation 3 for a state update raised in the render of Root/Stack/Mid/Stack/Leaf; the build was rolled back")
        let text = StatusLine.segments(StatusLine.Info(generation: 2, lastError: error)).map(\.text).joined()
        #expect(text.hasPrefix(" last error: [buildFailed] app.lua:2: attempt to index a nil value — "))
        #expect(ScreenRegions(size: Size(width: 100, height: 50), commandOpen: false).output?.height == 12)
        #expect(ScreenRegions(size: Size(width: 100, height: 20), commandOpen: false).output?.height == 5)
    }

    /// The words of a message are never edited (the outsider's apps attack, 12: "(made in the
    /// render of Card)" in an [unhandledAction], and in an app's own error, was rewritten into
    /// "Card): … (made in its …"): a one-line error shows as it is; a heading over a cause shows
    /// the cause first, both unchanged.
    @Test func messagesAreShownAsTheRuntimeMadeThem() {
        let unhandled = "[unhandledAction] app.lua:1: nothing handles \"openCard\" from List/Stack/Card#2/Button (made in the render of Card); chain walked: Button -> nil. Define openCard"
        #expect(ErrorHeadline.of(unhandled) == unhandled)
        let own = "[actionFailed] C.a of C (handling \"a\") raised:\nmsg.lua:3: cache miss (made in the render of Widget); retry\nstack traceback:"
        #expect(ErrorHeadline.of(own) == "[actionFailed] msg.lua:3: cache miss (made in the render of Widget); retry — C.a of C (handling \"a\") raised:")
        #expect(ErrorHeadline.of("app.lua:4: timeout raised in the render of Gauge; giving up") == "app.lua:4: timeout raised in the render of Gauge; giving up")
        let nested = "[buildFailed] building generation 2 for the first build raised in the render of Outer; x\n[buildFailed] building generation 1 raised in the render of Inner; y\ninner.lua:9: boom"
        #expect(ErrorHeadline.of(nested) == "[buildFailed] inner.lua:9: boom — building generation 2 for the first build raised in the render of Outer; x")
        #expect(ErrorHeadline.id(of: own) == "actionFailed" && ErrorHeadline.id(of: "[notAnId] x") == nil)
    }

    /// Builds nested level after level that fail the same way count the repeats on a line of
    /// their own (`BuildFailure.text`): the status line leads with the cause, never that count.
    @Test func aRepeatedNestedBuildFailureLeadsWithItsCause() {
        let head = "[buildFailed] building generation 1 for the first build raised in the render of Outer; x"
        var error = BuildFailure.text(head, over: "app.lua:3: boom")
        for _ in 0..<3 { error = BuildFailure.text(head, over: error) }
        #expect(error.contains("(the same [buildFailed] 3 more times"), "\(error)")
        #expect(ErrorHeadline.of(error + "\nstack traceback:\n\t[C]: in ?") == "[buildFailed] app.lua:3: boom — building generation 1 for the first build raised in the render of Outer; x")
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
            "Focused: Button", " …/Stack/Button", "", "Responder chain",
            " Button", " → Stack", " → Row#2", " → RowController", " → Stack", "   … 2 more", " → nil",
            "", "Last tap: [ Go ]", " go from Button", "  ✓ RowController ", "   handled it",
        ])
    }

    /// A focused path wider than the panel keeps one row: its end, from a `/` on (it wrapped
    /// over up to four rows, its start first, the focused component last).
    @Test func aLongFocusedPathKeepsItsEndOnOneRow() {
        let deep = SidePanel.Focused(label: "Button", path: "App/Stack/Settings/Stack/Section#privacy/Stack/Row#3/Stack/Button",
                                     chain: ["Button", "nil"])
        let lines = SidePanel.lines(focused: deep, trace: [], width: 30, height: 20).map(\.text)
        #expect(lines[1] == " …/Stack/Row#3/Stack/Button", "\(lines)")
        #expect(lines[2] == "" && lines[3] == "Responder chain", "\(lines)")
        #expect(SidePanel.endOf("App/Stack/Button", fitting: 16) == "App/Stack/Button")
        #expect(SidePanel.endOf("App/Stack/Button", fitting: 15) == "…/Stack/Button")
        #expect(SidePanel.endOf("App/" + String(repeating: "x", count: 40), fitting: 10) == "…" + String(repeating: "x", count: 9))
        let huge = Array(repeating: "Node/View", count: 50_000).joined(separator: "/")
        #expect(SidePanel.endOf(huge, fitting: 12) == "…/Node/View")
    }

    @Test func withRoomTheWholeChainShows() {
        let lines = SidePanel.lines(focused: focused, trace: [], width: 40, height: 30).map(\.text)
        #expect(lines.count == 4 + 8)
        #expect(lines.last == " → nil")
    }
}
