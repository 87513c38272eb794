import CEditLine

/// A line's bytes as libedit holds them, and back. libedit holds characters: a byte that is not
/// UTF-8 (`"\\xff"` typed or pasted) and a C1 control (U+0085), which its key map leaves
/// unassigned, were dropped from the line silently, and from its history (atk-new 01; `lua5.4
/// -i` keeps them). Each byte of those, and of the characters that stand for one (typed, they
/// are escaped too, so every line maps back), is `CKEDIT_STRAY_BYTE` plus the byte: a character
/// of a private-use plane's end (ckedit_ahead.c hands them to libedit so, and ckcurses_input.c
/// to the live view's command line, where ncurses dropped them and the rest of the line).
enum EditorBytes {
    private static let stray = UInt32(CKEDIT_STRAY_BYTE)

    /// The bytes typed: each escaped byte put back.
    static func restored(_ line: [UInt8]) -> [UInt8] {
        // U+10FF80…U+10FFFF: F4 8F BE 80 … F4 8F BF BF.
        guard line.contains(0xF4) else { return line }
        var out: [UInt8] = []
        out.reserveCapacity(line.count)
        var i = 0
        while i < line.count {
            if i + 3 < line.count, line[i] == 0xF4, line[i + 1] == 0x8F, line[i + 2] & 0xFE == 0xBE, line[i + 3] & 0xC0 == 0x80 {
                out.append(0x80 | (line[i + 2] & 1) << 6 | (line[i + 3] & 0x3F))
                i += 4
            } else {
                out.append(line[i])
                i += 1
            }
        }
        return out
    }

    /// `bytes` as libedit holds them: valid UTF-8, each byte libedit would drop escaped.
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let length = validSequence(bytes, at: i)
            if length > 0, !dropped(bytes, at: i, length: length) {
                out += bytes[i..<(i + length)]
                i += length
                continue
            }
            for byte in bytes[i..<(i + max(length, 1))] { out += escape(byte) }
            i += max(length, 1)
        }
        return out
    }

    /// The UTF-8 of `stray + byte` (a byte of 0x80 or more; ASCII is never escaped).
    private static func escape(_ byte: UInt8) -> [UInt8] {
        guard byte >= 0x80, let scalar = Unicode.Scalar(stray + UInt32(byte)) else { return [byte] }
        return Array(String(Character(scalar)).utf8)
    }

    /// Whether the character at `i` is one libedit drops or one that stands for a byte.
    private static func dropped(_ bytes: [UInt8], at i: Int, length: Int) -> Bool {
        guard let scalar = String(decoding: bytes[i..<(i + length)], as: UTF8.self).unicodeScalars.first else { return false }
        return (0x80...0x9F).contains(scalar.value) || (stray + 0x80 ... stray + 0xFF).contains(scalar.value)
    }

    /// The length of the valid UTF-8 sequence at `i`, or 0.
    private static func validSequence(_ bytes: [UInt8], at i: Int) -> Int {
        let first = bytes[i]
        let length = first < 0x80 ? 1 : first >= 0xC2 && first <= 0xDF ? 2 : first >= 0xE0 && first <= 0xEF ? 3 : first >= 0xF0 && first <= 0xF4 ? 4 : 0
        guard length > 0, i + length <= bytes.count else { return 0 }
        return String(validating: bytes[i..<(i + length)], as: UTF8.self) == nil ? 0 : length
    }
}
