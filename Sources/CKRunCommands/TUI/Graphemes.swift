/// Text edited as user-perceived characters (grapheme clusters, Swift's `Character`, the
/// segmentation `Cells.prefix` cuts by): the command line and text fields keep their text as
/// `[Character]` and their cursor between two of them. Keys arrive a code point at a time (a
/// combining accent after its letter, an emoji after a ZWJ), so an insertion joins what it
/// brings with the characters around the cursor, and the cursor never stands inside a cluster
/// (atk-apps3 05: `e` + U+0301 were two characters, Left stopped between them).
enum Graphemes {
    /// Inserts `text` at `cursor`, re-segmenting it with its neighbours; the cursor ends after it.
    static func insert(_ text: String, into characters: inout [Character], cursor: inout Int) {
        let low = max(0, cursor - 1), high = min(characters.count, cursor + 1)
        let head = String(characters[low..<cursor]) + text
        let joined = Array(head + String(characters[cursor..<high]))
        characters.replaceSubrange(low..<high, with: joined)
        cursor = low + min(head.count, joined.count)
    }
}
