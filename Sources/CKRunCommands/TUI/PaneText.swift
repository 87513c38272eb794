/// A line of what a script wrote, as a terminal would leave it in the output pane: a carriage
/// return starts the line over, the text after it written over the text before (a progress
/// line `10%\r20%` shows `20%`), and a terminal's control sequences (CSI: `ESC [ … final`,
/// colours and cursor moves; an `ESC` and one character) are read and left out, so a coloured
/// log line shows its text, never `·[32m`. Nothing here writes an escape sequence: the pane is
/// drawn through ncurses.
enum PaneText {
    static func line(_ bytes: some Collection<UInt8>) -> String {
        var row: [Character] = []
        for piece in withoutSequences(bytes).split(separator: 13, omittingEmptySubsequences: false) {
            var column = 0
            for c in String(decoding: piece, as: UTF8.self) {
                if column < row.count { row[column] = c } else { row.append(c) }
                column += 1
            }
        }
        return Cells.sanitized(String(row))
    }

    /// The bytes without the terminal's control sequences. A sequence cut at the end is dropped.
    static func withoutSequences(_ bytes: some Collection<UInt8>) -> [UInt8] {
        guard bytes.contains(27) else { return Array(bytes) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            i = bytes.index(after: i)
            guard b == 27 else {
                out.append(b)
                continue
            }
            guard i != bytes.endIndex else { break }
            let kind = bytes[i]
            i = bytes.index(after: i)
            guard kind == UInt8(ascii: "[") else { continue }   // ESC and one character
            // Parameters and intermediates, then one final byte (0x40–0x7E).
            while i != bytes.endIndex, (0x20...0x3F).contains(bytes[i]) { i = bytes.index(after: i) }
            if i != bytes.endIndex { i = bytes.index(after: i) }
        }
        return out
    }
}
