@testable import CKRunCommands
import Testing

/// Text cut to a width in terminal cells (every row the live view draws): the quick path for
/// text below U+0300 cuts where the character-by-character one does.
@Suite("Cells: text measured in terminal cells")
struct CellsTests {
    @Test(arguments: [
        ("row 1 · tapped 3 times", 7, "row 1 ·"),
        ("short", 80, "short"),
        ("Ça coûte 5 €", 9, "Ça coûte "),
        ("abe\u{301}x", 3, "abe\u{301}"),
        ("日本語", 5, "日本"),
        ("→ Stack", 3, "→ S"),
        ("", 4, ""),
        ("anything", 0, ""),
    ])
    func prefixFitsTheCells(text: String, columns: Int, expected: String) {
        let cut = Cells.prefix(text, fitting: columns)
        #expect(cut == expected)
        #expect(Cells.width(cut) <= columns)
    }
}

@Suite("Cells: what a script's text shows as")
struct SanitizedTests {
    @Test(arguments: [
        ("stack traceback:", "stack traceback:"),
        ("\t[C]: in function 'error'", "        [C]: in function 'error'"),
        ("ab\tc\td", "ab      c       d"),
        ("\u{1B}[31mred", "·[31mred"),
        ("cr\r", "cr·"),
    ])
    func controlsAreShownNeverSent(text: String, expected: String) {
        #expect(Cells.sanitized(text) == expected)
    }
}
