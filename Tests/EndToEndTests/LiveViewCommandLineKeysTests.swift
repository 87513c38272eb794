import CKTestHelpers
import Foundation
import Testing

/// The live view's command line is the REPL's: Alt (Option) keys are one key each, never Escape
/// and a view key (terminal attack, break 12: Alt-q quit the run, Alt-Space tapped, the line
/// was dropped), and it has the REPL's Emacs keys and Tab completion (break 07).
@Suite("The live view's command line keys (tmux)")
struct LiveViewCommandLineKeysTests {
    typealias Session = ReplTerminalTests.Session

    private func view() throws -> Session {
        let s = try Session(command: LiveViewTerminalTests.ckrun("\(LiveViewTerminalTests.songList) --tui"))
        try s.wait("the live view") { $0.contains("Responder chain") }
        return s
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func altKeysAreOneKeyAndNeverViewKeys() throws {
        let s = try view()
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "seen = 12"])
        // Option-Left as macOS terminals send it (ESC b), then Alt-q and Alt-Space.
        try s.keys("M-b", "3", "M-q", "M-Space")
        try s.wait("the edit") { $0.contains("> seen = 312") }
        try s.keys("Enter")
        // A ':' read with the Enter (a loaded machine) is text pending after the line: the
        // command line stays open for it, as for the rest of a paste, and it became the line's.
        Thread.sleep(forTimeInterval: 0.3)
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "print('seen', seen)"])
        try s.keys("Enter")
        let screen = try s.wait("the value printed") { $0.contains("seen\t312") || $0.contains("seen    312") }
        #expect(!screen.contains("Last tap"), "Alt-Space tapped nothing:\n\(screen)")
        #expect(screen.contains("Responder chain"), "Alt-q did not quit")
        try s.keys("q")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func emacsKeysAndTabCompletion() throws {
        let s = try view()
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "xx = 1 + 2"])
        // Ctrl-W drops "2", Ctrl-A goes home, Ctrl-K drops all, Ctrl-U on an empty line is harmless.
        try s.keys("C-w")
        try s.run(["send-keys", "-t", "0", "-l", "40"])
        try s.keys("C-a")
        try s.run(["send-keys", "-t", "0", "-l", "local "])
        try s.keys("C-e", "Enter")
        try s.wait("the line ran") { $0.contains("> local xx = 1 + 40") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "junk"])
        try s.keys("C-u")
        try s.run(["send-keys", "-t", "0", "-l", "string.for"])
        try s.keys("Tab")
        try s.wait("the completion") { $0.contains("> string.format") }
        try s.run(["send-keys", "-t", "0", "-l", "('<%d>', 7)"])
        try s.keys("Enter")
        try s.wait("the result") { $0.contains("<7>") }
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "string.re"])
        try s.keys("Tab")
        try s.wait("the candidates listed") { $0.contains("string.rep") && $0.contains("string.reverse") }
        try s.keys("Escape", "q")
    }

    /// Terminal attack, break 10: the output pane could not be scrolled, and an error's heading
    /// above its last rows could not be read.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theOutputPaneScrollsBack() throws {
        let s = try view()
        try s.keys(":")
        try s.run(["send-keys", "-t", "0", "-l", "for i = 1, 60 do print('row ' .. i) end"])
        try s.keys("Enter")
        try s.wait("the last rows") { $0.contains("row 60") }
        try s.keys("S-PPage", "S-PPage")
        let back = try s.wait("scrolled back") { $0.contains("rows back") }
        #expect(!back.contains("row 60"), "the newest rows are below:\n\(back)")
        try s.keys("S-NPage", "S-NPage", "S-NPage")
        let end = try s.wait("at the end again") { $0.contains("row 60") && !$0.contains("rows back") }
        #expect(end.contains("── output"))
        try s.keys("q")
    }
}
