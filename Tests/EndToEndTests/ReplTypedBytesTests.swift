import CKTestHelpers
import Foundation
import Testing

/// What is typed or pasted at the REPL's prompt is what runs, byte for byte, as in `lua5.4 -i`
/// (atk-new 01: libedit dropped bytes that are not UTF-8 and the C1 control U+0085, silently,
/// from the line and from its history).
@Suite("Bytes typed at the REPL's prompt (tmux)")
struct ReplTypedBytesTests {
    /// Pastes `bytes` (no newline) through a file: tmux's arguments are text.
    private func paste(_ bytes: [UInt8], into s: ReplTerminalTests.Session, dir: TemporaryDirectory) throws {
        let file = dir.url.appendingPathComponent("paste-\(UUID().uuidString.prefix(6))")
        try Data(bytes).write(to: file)
        try s.run(["load-buffer", file.path])
        try s.run(["paste-buffer", "-t", "0"])
    }

    /// The fields after `word` on the screen's line printed starting with it.
    private static func fields(_ screen: String, _ word: String) -> [String]? {
        for line in AppTerminalTests.lines(screen) {
            let parts = line.split(whereSeparator: \.isWhitespace).map(String.init)
            if parts.first == word { return Array(parts.dropFirst()) }
        }
        return nil
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func bytesThatAreNotUTF8AndC1ControlsReachTheChunkAndTheHistory() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let s = try ReplTerminalTests.Session(command: "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path) repl")
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        // y = "\xff\xfe"   z = "<U+2028> <U+0085> ok"
        try paste(Array("y = \"".utf8) + [0xFF, 0xFE] + Array("\"".utf8), into: s, dir: dir)
        try s.keys("Enter")
        try paste(Array("z = \"".utf8) + [0xE2, 0x80, 0xA8, 0x20, 0xC2, 0x85] + Array(" ok\"".utf8), into: s, dir: dir)
        try s.keys("Enter")
        try s.line("print('LENGTHS', #y, #z, y == '\\255\\254')")
        let printed = try s.wait("the lengths") { Self.fields($0, "LENGTHS") != nil }
        #expect(Self.fields(printed, "LENGTHS") == ["2", "9", "true"], "\(printed)")
        // Recalled from the history, the first line runs as typed.
        try s.line("y = nil")
        try s.keys("Up", "Up", "Up", "Up", "Enter")
        try s.line("print('RECALLED', #y, y == '\\255\\254')")
        let screen = try s.wait("the recalled line's result") { Self.fields($0, "RECALLED") != nil }
        #expect(Self.fields(screen, "RECALLED") == ["2", "true"], "\(screen)")
    }

    /// The live view's command line read keys through ncurses' wget_wch, which dropped a byte
    /// that is not UTF-8 and the rest of the line after it (`y = "` ran, and waited for more).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theLiveViewsCommandLineKeepsThemToo() throws {
        let dir = try TemporaryDirectory()
        let s = try ReplTerminalTests.Session(command: LiveViewTerminalTests.ckrun("\(LiveViewTerminalTests.songList) --tui --clock virtual"))
        try s.wait("the views") { $0.contains("Responder chain") }
        try s.keys(":")
        try paste(Array("y = \"".utf8) + [0xFF, 0xFE] + Array("\" z = \"".utf8) + [0xC2, 0x85, 0x20, 0xE2, 0x80, 0xA8] + Array("\"".utf8), into: s, dir: dir)
        try s.keys("Enter")
        // The line ran (its echo is in the output pane) before ':' opens the next one: typed
        // ahead on a loaded machine, ':' went into the line still open.
        _ = try s.wait("the first line's echo") { $0.contains("> y = ") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "print('LENGTHS', #y, #z, y == '\\255\\254')"])
        try s.keys("Enter")
        let printed = try s.wait("the lengths") { Self.fields($0, "LENGTHS") != nil }
        #expect(Self.fields(printed, "LENGTHS") == ["2", "6", "true"], "\(printed)")
        try s.keys("q")
    }
}
