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

/// What the terminal is sent advances as `Cells.width` counts in every terminal: an emoji ZWJ
/// sequence loses its joiners (tmux joined it into 2 cells, ncurses counted 6: atk-apps3 02).
@Suite("Cells: text as the terminal is sent it")
struct DrawnTextTests {
    @Test(arguments: ["family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} ok", "\u{2764}\u{FE0F}\u{200D}\u{1F525}",
                      "\u{1F44D}\u{1F3FD}\u{200D}x", "plain", "a\u{200D}b"])
    func drawnTextKeepsItsWidthAndJoinsNoEmoji(text: String) {
        let drawn = Cells.drawn(text)
        #expect(Cells.width(drawn) == Cells.width(text))
        let scalars = Array(drawn.unicodeScalars)
        for (i, s) in scalars.enumerated() where s == "\u{200D}" {
            #expect(i > 0 && Cells.width(scalars[i - 1]) < 2 && scalars[i - 1] != "\u{FE0F}", "a joiner after an emoji in \(text)")
        }
    }

    @Test func aTextCanvasGivesTheFamilyItsSixCells() {
        let canvas = TextCanvas(Size(width: 12, height: 1))
        canvas.text("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}|", y: 0, x: 0, style: .plain)
        #expect(canvas.rows[0][6] == "|", "\(canvas.lines)")
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

/// The quick paths read a row's bytes in place (every row, every frame of the live view): they
/// measure, clean and split as the scalar-by-scalar and character-by-character ways do.
@Suite("Cells: the byte-reading paths agree with the scalar ones")
struct CellsBytePathTests {
    static let texts = ["row 1 · tapped 3 times", "plain", "", "abe\u{301}x", "日本語", "a😀b", "Ça coûte 5 €",
                        "nul\u{0}byte", "tab\there", "c1\u{85}mark", "del\u{7F}", "\u{300}lone mark", "\u{2028}sep"]

    @Test(arguments: texts)
    func widthIsTheSumOfTheScalars(text: String) {
        #expect(Cells.width(text) == text.unicodeScalars.reduce(0) { $0 + Cells.width($1) })
    }

    @Test(arguments: texts)
    func sanitizedLeavesNoControlAndKeepsTheRest(text: String) {
        let shown = Cells.sanitized(text)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        if !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }) { #expect(shown == text) }
    }

    @Test(arguments: texts)
    func prefixIsWhereTheCharactersFit(text: String) {
        for columns in 1...12 {
            let cut = Cells.prefix(text, fitting: columns)
            #expect(text.hasPrefix(cut) && Cells.width(cut) <= columns)
            let next = text.dropFirst(cut.count).first.map { Cells.width(String($0)) }
            #expect(next.map { Cells.width(cut) + $0 > columns } ?? true, "\(text) at \(columns): a character more would fit")
        }
    }

    @Test(arguments: [
        ("one", ["one"]),
        ("a\nb", ["a", "b"]),
        ("a\n\nb\n", ["a", "", "b", ""]),
        ("\n", ["", ""]),
        ("crlf\r\nstays", ["crlf··stays"]),
        ("tab\tand\nrow · 2", ["tab     and", "row · 2"]),
    ])
    func textsSplitIntoLinesAsCharacters(text: String, expected: [String]) {
        #expect(LiveTreeBuilder.lines(text) == expected)
        #expect(LiveTreeBuilder.lines(text) == text.split(separator: "\n", omittingEmptySubsequences: false).map { Cells.sanitized(String($0)) })
    }
}
