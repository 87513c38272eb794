#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Bytes that may not be UTF-8 (a command line argument, a test's name or output) carried in a
/// Swift `String` without losing any: each byte that is not part of UTF-8 becomes one scalar of
/// U+10FF00…U+10FFFF (private use), as Python's `surrogateescape` does with surrogates. A real
/// character of that range is carried as its four bytes, so `bytes(of: text(b)) == b` for every
/// `b`. Decoding with U+FFFD gave `caf\xE9` and `caf\xFE` one name, and `--filter $'caf\xe9'`,
/// `-e`, `-Xhelper` and `-m` other bytes than the ones typed.
public enum ByteText {
    private static let base: UInt32 = 0x10FF00

    /// The carried text of `bytes`. Inlined into each caller, so that the contiguous case (all
    /// of ckrun's) reaches `text(contiguous:)` without a generic call: unspecialised, a call on a
    /// slice looked up `Slice`'s metadata and witnesses each time (~1,000 instructions, 10M of
    /// the 10,000-test run's in the process that reads the results).
    @inlinable
    public static func text(_ bytes: some Collection<UInt8>) -> String {
        if let text = bytes.withContiguousStorageIfAvailable({ text(contiguous: $0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { text(contiguous: $0) }
    }

    /// The carried text of bytes in memory.
    public static func text(contiguous bytes: UnsafeBufferPointer<UInt8>) -> String {
        // ASCII (most names, paths and messages) carries nothing: made from its bytes in one pass.
        if let ascii = Self.ascii(bytes) { return ascii }
        // A carried scalar's UTF-8 starts with 0xF4: most text is returned after one byte scan.
        if let text = String(validating: bytes, as: UTF8.self),
           !bytes.contains(0xF4) || !text.unicodeScalars.contains(where: isCarried) { return text }
        var out = String.UnicodeScalarView(), rest = bytes[...]
        while let first = rest.first {
            let width = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
            if rest.count >= width, let piece = String(validating: rest.prefix(width), as: UTF8.self),
               let scalar = piece.unicodeScalars.first, piece.unicodeScalars.count == 1, !isCarried(scalar) {
                out.append(scalar)
                rest = rest.dropFirst(width)
            } else {
                out.append(Unicode.Scalar(base + UInt32(first))!)
                rest = rest.dropFirst()
            }
        }
        return String(out)
    }

    private static func ascii(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The carried text of a C string (an `argv` entry).
    public static func text(cString: UnsafePointer<CChar>) -> String {
        text(UnsafeRawBufferPointer(start: cString, count: strlen(cString)))
    }

    /// The bytes `text` carries.
    public static func bytes(of text: String) -> [UInt8] {
        guard text.unicodeScalars.contains(where: isCarried) else { return Array(text.utf8) }
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            if isCarried(scalar) { out.append(UInt8(scalar.value - base)) } else { out += String(scalar).utf8 }
        }
        return out
    }

    /// A copy of the carried bytes as a C string, for `argv` (malloc'd: `free` it).
    public static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = bytes(of: text)
        let copy = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        return copy
    }

    public static func isCarried(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= base }

    /// `text` for a reader: each carried byte as `\xNN`.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isCarried) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isCarried(scalar) {
                let byte = scalar.value - base
                out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
