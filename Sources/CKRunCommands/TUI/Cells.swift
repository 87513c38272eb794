import CCurses

/// Text measured in terminal cells, as ncursesw measures it (`wcwidth` under a UTF-8 locale):
/// a CJK character or an emoji takes two, a combining mark none; a user-perceived character (a
/// grapheme cluster) takes the sum of its code points' (`width(_: Character)`), which is what a
/// terminal advances once `drawn` has left out the joiners it would glue emoji with.
enum Cells {
    /// Makes sure character widths are read under a UTF-8 locale (the user's, else C.UTF-8).
    static let useUTF8Locale: Void = ckcells_use_utf8_locale()

    /// The cells `scalar` takes; what cannot be shown (a control character) takes one, as the
    /// replacement `sanitized` puts there.
    static func width(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
        _ = useUTF8Locale
        let w = ckcells_width(scalar.value)
        return w < 0 ? 1 : Int(w)
    }

    /// The cells a user-perceived character takes: its code points' (a flag's two regional
    /// indicators one each, a combining mark none), as ncurses, tmux and xterm advance them.
    static func width(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    /// `text` as the terminal is sent it: a zero-width joiner after an emoji left out. tmux
    /// draws an emoji ZWJ sequence (👨‍👩‍👧) in 2 cells, xterm and ncurses give each emoji its 2
    /// (6): the terminal and ncurses disagreed on where the rest of the row went (atk-apps3 02).
    /// Without the joiner every terminal shows the emoji side by side, in the cells `width` counts.
    static func drawn(_ text: String) -> String {
        // U+200D is E2 80 8D: a row without an E2 byte has none.
        guard text.utf8.contains(0xE2), text.unicodeScalars.contains("\u{200D}") else { return text }
        var shown = String.UnicodeScalarView()
        var afterEmoji = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{200D}" && afterEmoji { continue }
            shown.append(scalar)
            // An emoji is wide, or made so by its presentation selector (❤️, U+2764 U+FE0F).
            afterEmoji = width(scalar) == 2 || scalar == "\u{FE0F}" || (afterEmoji && (0x1F3FB...0x1F3FF).contains(scalar.value))
        }
        return String(shown)
    }

    static func width(_ text: String) -> Int {
        if let quick = text.utf8.withContiguousStorageIfAvailable({ bytes in
            var used = 0
            UTF8Scalars.forEach(in: bytes) { scalar, _ in used += width(scalar); return true }
            return used
        }) { return quick }
        return text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    /// Control characters (an escape, a carriage return) replaced by `·`, a tab by spaces to the
    /// next of every 8 cells, as a terminal shows it (a traceback's lines start with one): text
    /// from a script is shown, never sent to the terminal as commands.
    static func sanitized(_ text: String) -> String {
        guard text.utf8.withContiguousStorageIfAvailable(UTF8Scalars.holdsControl) ?? text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        var column = 0
        for scalar in text.unicodeScalars {
            if scalar == "\t" {
                let spaces = tabStop - column % tabStop
                shown.append(contentsOf: repeatElement(" ", count: spaces))
                column += spaces
            } else {
                shown.append(isControl(scalar) ? "·" : scalar)
                column += width(shown[shown.index(before: shown.endIndex)])
            }
        }
        return String(shown)
    }

    static let tabStop = 8

    private static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F..<0xA0).contains(s.value) }

    /// The longest prefix of `text` that fits in `columns` cells (never splitting a character).
    static func prefix(_ text: String, fitting columns: Int) -> String {
        guard columns > 0 else { return "" }
        if let simple = simplePrefix(text, fitting: columns) { return simple }
        var used = 0
        var end = text.startIndex
        for c in text {
            let w = width(c)
            if used + w > columns { break }
            used += w
            end = text.index(after: end)
        }
        return String(text[..<end])
    }

    /// The prefix measured scalar by scalar, without grapheme breaking, while every scalar up
    /// to the cut is below U+0300 (ASCII, Latin-1, Latin Extended: each a character of its
    /// own, nothing combines with it); else nil. Every row the view draws is cut to fit: its
    /// bytes are read as they are, with no index checks (the view's every row, every frame).
    private static func simplePrefix(_ text: String, fitting columns: Int) -> String? {
        // The offset of the first byte cut off; `fits` when none is, `notSimple` past U+02FF.
        let (fits, notSimple) = (-1, -2)
        guard let cut = text.utf8.withContiguousStorageIfAvailable({ bytes in
            var used = 0, cut = fits
            UTF8Scalars.forEach(in: bytes) { scalar, offset in
                guard scalar.value < 0x300 else { cut = notSimple; return false }
                used += width(scalar)
                if used > columns { cut = offset; return false }
                return true
            }
            return cut
        }) else { return scalarPrefix(text, fitting: columns) }
        switch cut {
        case fits: return text
        case notSimple: return nil
        default: return String(decoding: text.utf8.prefix(cut), as: UTF8.self)
        }
    }

    /// `simplePrefix` for a string whose bytes are not contiguous.
    private static func scalarPrefix(_ text: String, fitting columns: Int) -> String? {
        let scalars = text.unicodeScalars
        var used = 0
        for i in scalars.indices {
            guard scalars[i].value < 0x300 else { return nil }
            used += width(scalars[i])
            if used > columns { return String(scalars[..<i]) }
        }
        return text
    }

    /// `text` without the characters in its first `columns` cells, and the cells they took (one
    /// more than `columns` when a wide character straddles the cut: it goes whole).
    static func dropping(_ columns: Int, of text: String) -> (rest: String, dropped: Int) {
        var dropped = 0
        var start = text.startIndex
        while dropped < columns, start < text.endIndex {
            dropped += width(text[start])
            start = text.index(after: start)
        }
        return (String(text[start...]), dropped)
    }

    /// Drops characters from the front until at most `columns` cells are left.
    static func suffix(_ text: String, fitting columns: Int) -> String {
        var used = 0
        var start = text.endIndex
        for c in text.reversed() {
            let w = width(c)
            if used + w > columns { break }
            used += w
            start = text.index(before: start)
        }
        return String(text[start...])
    }
}

/// The scalars of valid UTF-8 (a Swift string's bytes), decoded in place: the live view measures
/// every row it draws, and the string views' indices check each step.
enum UTF8Scalars {
    /// Calls `body` with each scalar and the offset of its first byte while it returns true.
    @inline(__always)
    static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Unicode.Scalar, Int) -> Bool) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = UInt32(bytes[i])
            var value = b, length = 1
            if b >= 0xF0, i + 3 < n {
                value = (b & 0x07) << 18 | (UInt32(bytes[i + 1]) & 0x3F) << 12 | (UInt32(bytes[i + 2]) & 0x3F) << 6 | (UInt32(bytes[i + 3]) & 0x3F)
                length = 4
            } else if b >= 0xE0, i + 2 < n {
                value = (b & 0x0F) << 12 | (UInt32(bytes[i + 1]) & 0x3F) << 6 | (UInt32(bytes[i + 2]) & 0x3F)
                length = 3
            } else if b >= 0xC0, i + 1 < n {
                value = (b & 0x1F) << 6 | (UInt32(bytes[i + 1]) & 0x3F)
                length = 2
            }
            guard body(Unicode.Scalar(value) ?? "\u{FFFD}", i) else { return }
            i += length
        }
    }

    /// Whether the bytes hold a control character (C0, DEL or C1: `Cells.sanitized` replaces them).
    static func holdsControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F { return true }
            if b == 0xC2, i + 1 < n, bytes[i + 1] < 0xA0 { return true }   // U+0080…U+009F
            i += 1
        }
        return false
    }
}
