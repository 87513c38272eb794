#if canImport(Glibc)
import Glibc
#endif

/// A Lua string's bytes as a Swift string when they are UTF-8, else nil: how the bridge reads a
/// string it keeps as text. `String(validating:as:)` costs 600 to 1,200 instructions a call on
/// this toolchain (a 25-byte row of the live view: 1,200); Lua ends every string with a NUL, so
/// one with no NUL inside is read as a C string, validated and copied in one pass. Neither way
/// repairs: bytes that are not UTF-8 make no copy (10 MB of "\255" made a 30 MB repaired one).
enum LuaText {
    @inline(__always)
    static func string(_ chars: UnsafePointer<CChar>?, count: Int) -> String? {
        guard let chars else { return count == 0 ? "" : nil }
        if strlen(chars) == count { return String(validatingCString: chars) }
        return String(validating: UnsafeRawBufferPointer(start: chars, count: count), as: UTF8.self)
    }
}
