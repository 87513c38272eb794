import CKCore
@testable import CKRunCommands
import Testing

/// A text field's editing and drawing in the live view (docs/tui.md, *Text fields*).
@Suite("The live view's text fields, on a canvas of text")
struct LiveTextFieldTests {
    func paint(_ field: LiveTree.Field, width: Int, focused: Bool = false) -> String {
        var tree = LiveTree()
        tree.add(.init(kind: .field(field), focusable: true), under: nil)
        let size = Size(width: width, height: 1)
        let canvas = TextCanvas(size)
        Painter(tree: tree, frames: Layout.frames(tree, in: size), region: Rect(x: 0, y: 0, width: width, height: 1), top: 0, focused: focused ? 0 : nil)
            .paint(on: canvas)
        return canvas.lines[0]
    }

    @Test func editsInsertAndDeleteAtTheCursor() {
        var t = EditableText("ab")
        t.insert("c")
        t.apply(.left)
        t.apply(.left)
        t.insert("日本")
        #expect(t.text == "a日本bc" && t.beforeCursor == "a日本")
        t.apply(.backspace)
        t.apply(.delete)
        #expect(t.text == "a日c" && t.cursor == 2)
        t.apply(.home)
        t.apply(.backspace)
        #expect(t.text == "a日c" && t.cursor == 0)
        t.apply(.end)
        t.apply(.delete)
        #expect(t.cursor == 3)
    }

    /// readline's word and line keys (one table for a field and the command line: a key once).
    @Test func wordAndLineEditsAsReadlineMakesThem() {
        var t = EditableText("one two  three")
        t.apply(.deleteWordBack)
        #expect(t.text == "one two  " && t.cursor == 9)
        t.apply(.wordLeft)
        #expect(t.cursor == 4, "to the start of the word before")
        t.apply(.deleteWordForward)
        #expect(t.text == "one   " && t.cursor == 4)
        t.apply(.home)
        t.apply(.wordRight)
        #expect(t.cursor == 3, "to the end of the next word")
        t.apply(.killToEnd)
        #expect(t.text == "one" && t.cursor == 3)
        t.apply(.left)
        t.apply(.killToStart)
        #expect(t.text == "e" && t.cursor == 0)
        let keys = EditingKeys.table.map(\.key)
        #expect(Set(keys).count == keys.count, "each key once")
        #expect(EditingKeys.edit(for: .character("\u{17}")) == .deleteWordBack && EditingKeys.edit(for: .controlLeft) == .wordLeft)
        #expect(FieldBindings.command(for: .alt("f")) == .edit(.wordRight) && FieldBindings.command(for: .enter) == .endOnExit)
    }

    @Test func aRewriteToOtherTextPutsTheCursorAtItsEnd() {
        var t = EditableText("abc")
        t.apply(.home)
        t.rewrite("abc")
        #expect(t.cursor == 0, "the same text keeps the cursor")
        t.rewrite("ABCD")
        #expect(t.text == "ABCD" && t.cursor == 4)
    }

    @Test func aFieldShowsItsTextOrItsPlaceholderAndTheFocus() {
        #expect(paint(.init(before: "", placeholder: "your name"), width: 30) == "[ your name  ]")
        #expect(paint(.init(before: "ab", placeholder: "your name"), width: 30, focused: true) == "[▸ab" + String(repeating: " ", count: 8) + "◂]")
        #expect(FieldLook.naturalWidth(.init(before: String(repeating: "x", count: 100), placeholder: "")) == FieldLook.frame + FieldLook.widest)
    }

    @Test func aLongTextScrollsToKeepTheCursorInView() {
        let field = LiveTree.Field(before: "0123456789日本語", after: "", placeholder: "")
        let shown = FieldLook.pieces(field, width: 14, focus: true)
        #expect(shown.pieces[1].text == "789日本語 ", "the text before the cursor, wide characters whole, the cursor's cell last")
        #expect(shown.cursor == 2 + 9)
        let atStart = FieldLook.pieces(LiveTree.Field(before: "", after: "0123456789abc", placeholder: ""), width: 14, focus: true)
        #expect(atStart.pieces[1].text == "0123456789" && atStart.cursor == 2)
    }

    /// atk-text 11: a paste's run of line breaks (a CRLF a terminal sends as CR CR) is one space.
    @Test func aPastesLineBreaksAreOneSpaceEach() {
        #expect(LiveView.flattened("first\r\rsecond") == "first second")
        #expect(LiveView.flattened("a\r\nb\tc\u{1}d\ne") == "a b cd e")
    }

    /// atk-text 09: a field is never wider than the area; its text scrolls in what room it has.
    @Test func aFieldIsNeverWiderThanTheArea() {
        var tree = LiveTree()
        let field = LiveTree.Field(before: "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF", placeholder: "")
        tree.add(.init(kind: .field(field), focusable: true), under: nil)
        let frames = Layout.frames(tree, in: Size(width: 30, height: 12))
        #expect(frames[0].width == 30)
        let shown = FieldLook.pieces(field, width: frames[0].width, focus: true)
        #expect(shown.cursor == 27 && shown.pieces[1].text == "rstuvwxyz0123456789ABCDEF ")
    }
}
