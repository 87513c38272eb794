@testable import CKRunCommands
import Testing

/// A text field and the command line edit by user-perceived character: keys come a code point at
/// a time, yet the cursor never stops inside a cluster (atk-apps3 05: Left stopped between `e`
/// and its accent, and `x` typed there gave "ex́z").
@Suite("Editing by grapheme cluster")
struct GraphemeEditingTests {
    static let typed: [(scalars: [String], lefts: Int, expected: String)] = [
        (["e", "\u{301}", "z"], 2, "xe\u{301}z"),
        (["a", "b", "\u{1F468}", "\u{200D}", "\u{1F469}", "\u{200D}", "\u{1F467}", "c", "d"], 3, "abx\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}cd"),
        (["\u{1F1EB}", "\u{1F1F7}", "!"], 2, "x\u{1F1EB}\u{1F1F7}!"),
    ]

    @Test(arguments: 0..<typed.count)
    func aFieldsCursorSkipsWholeClusters(_ i: Int) {
        let (scalars, lefts, expected) = Self.typed[i]
        var t = EditableText("")
        for s in scalars { t.insert(s) }
        for _ in 0..<lefts { t.apply(.left) }
        t.insert("x")
        #expect(t.text == expected)
        #expect(t.text.unicodeScalars.elementsEqual(expected.unicodeScalars), "code points: \(t.text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test(arguments: 0..<typed.count)
    func theCommandLinesCursorSkipsWholeClusters(_ i: Int) {
        let (scalars, lefts, expected) = Self.typed[i]
        var line = LineEditor()
        for s in scalars { line.insert(Character(s)) }
        for _ in 0..<lefts { line.apply(.left) }
        line.insert("x")
        #expect(line.line.unicodeScalars.elementsEqual(expected.unicodeScalars), "\(line.line.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func backspaceDeletesTheWholeCluster() {
        var t = EditableText("")
        for s in ["a", "e", "\u{301}"] { t.insert(s) }
        t.apply(.backspace)
        #expect(t.text == "a")
    }
}
