@testable import CKRunCommands
import Testing

/// A line's bytes through libedit (or the live view's command line) and back: every byte
/// sequence survives, and what the editor holds is UTF-8 with no character it drops.
@Suite("EditorBytes: the bytes typed, as the line editor holds them")
struct EditorBytesTests {
    static let lines: [[UInt8]] = [
        Array("plain ascii, é, 日本".utf8),
        [0x79, 0x3D, 0x22, 0xFF, 0xFE, 0x22],                       // not UTF-8
        [0xC2, 0x85, 0x20, 0xE2, 0x80, 0xA8],                       // U+0085 (C1), U+2028
        [0xF4, 0x8F, 0xBE, 0x80, 0xF4, 0x8F, 0xBF, 0xBF],           // U+10FF80, U+10FFFF typed
        [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [],
        Array(0...255).map(UInt8.init),
    ]

    @Test(arguments: lines)
    func aLineComesBackWhole(_ line: [UInt8]) {
        let held = EditorBytes.escaped(line)
        #expect(EditorBytes.restored(held) == line)
        let text = String(validating: held, as: UTF8.self)
        #expect(text != nil)
        #expect(text?.unicodeScalars.contains { (0x80...0x9F).contains($0.value) } == false)
    }

    @Test func validTextIsHeldAsItIs() {
        let line = Array("return \"héllo\" .. 日本".utf8)
        #expect(EditorBytes.escaped(line) == line)
    }
}
