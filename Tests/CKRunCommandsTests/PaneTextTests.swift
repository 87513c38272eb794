@testable import CKRunCommands
import Testing

/// The output pane shows what a terminal would (terminal attack, break 08: `\r` and ESC were
/// drawn as `·`, a progress line piled up, a coloured log line showed `·[32mINFO·[0m`).
@Suite("The output pane's lines as a terminal leaves them (no terminal)")
struct PaneTextTests {
    private func line(_ text: String) -> String { PaneText.line(Array(text.utf8)) }

    @Test func aCarriageReturnWritesOverTheLine() {
        #expect(line("progress 10%\rprogress 20%\rprogress 30%") == "progress 30%")
        #expect(line("long text here\rshort") == "shorttext here", "only what is written over changes")
        #expect(line("crlf line\r") == "crlf line")
    }

    @Test func colourAndCursorSequencesAreLeftOut() {
        #expect(line("\u{1B}[32mINFO\u{1B}[0m started") == "INFO started")
        #expect(line("\u{1B}[1;38;5;208mbold\u{1B}[m \u{1B}[2Kcleared\u{1B}[") == "bold cleared", "a cut sequence is dropped")
        #expect(line("a\u{1B}=b\u{7}c") == "ab·c", "ESC and one character go; other controls still show as ·")
    }
}
