import CKTestHelpers
import Foundation
import Testing

/// The live view's screens in docs/tui.md and README.md are what ckrun draws: each is drawn again
/// in tmux at the documented size with the documented keys, and compared line for line (the wall
/// clock's reading aside). When the drawing changes on purpose, paste the screen the failure
/// prints into the document.
@Suite("The live view's documented screens (tmux)")
struct LiveViewDocsTests {
    typealias Session = ReplTerminalTests.Session

    /// The ```text block after the comment naming this test in `file`, without lines starting `$ `.
    static func documentedScreen(in file: String) throws -> [String] {
        let text = try String(contentsOf: Ckrun.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let marker = lines.firstIndex(where: { $0.contains("LiveViewDocsTests") }),
              let open = lines[marker...].firstIndex(of: "```text"),
              let close = lines[(open + 1)...].firstIndex(of: "```") else {
            Issue.record("\(file) has no screen checked by LiveViewDocsTests")
            return []
        }
        return lines[(open + 1)..<close].filter { !$0.hasPrefix("$ ") }.map(normalized)
    }

    /// Trailing blanks dropped and the wall clock's reading, which no two runs share, left out.
    static func normalized(_ line: String) -> String {
        line.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"wall clock [0-9.]+ s"#, with: "wall clock … s", options: .regularExpression)
    }

    /// The screen drawn by `arguments` in `directory`, in a `width`×`height` terminal, after `keys`,
    /// once `done` holds and it shows `documented`, or the last one seen if it never does. ckrun
    /// draws a moment in several writes (the output, then the status line): a capture taken
    /// between two of them is not the moment, and failed the comparison twice under load.
    static func drawn(_ arguments: String, in directory: URL, width: Int, height: Int, keys: [String],
                      documented: [String], done: (String) -> Bool) throws -> [String] {
        let s = try Session(command: "cd \(directory.path) && env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(arguments)",
                            width: width, height: height)
        try s.wait("the live view") { $0.contains("Responder chain") }
        try s.run(["send-keys", "-t", "0"] + keys)
        let screen = try s.wait("the documented moment") { done($0) && lines(of: $0) == documented }
        try s.keys("q")
        return lines(of: screen)
    }

    static func lines(of screen: String) -> [String] {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { normalized(String($0)) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theScreenInDocsTuiIsWhatCkrunDraws() throws {
        let documented = try Self.documentedScreen(in: "docs/tui.md")
        let drawn = try Self.drawn("Examples/song_list.lua --tui --clock virtual", in: Ckrun.packageRoot, width: 100, height: 30,
                                   keys: ["Tab", "Enter"], documented: documented) {
            $0.contains("downloaded \"Let It Be\"") && $0.contains("Last tap") && $0.contains("virtual clock 1 s")
        }
        #expect(drawn == documented, "docs/tui.md's screen; ckrun draws:\n\(drawn.joined(separator: "\n"))")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theScreenInTheReadmeIsWhatCkrunDrawsForItsCounter() throws {
        // The README's counter.lua, as a reader would save it.
        let readme = try String(contentsOf: Ckrun.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let code = try #require(readme.components(separatedBy: "```lua\n").dropFirst().first?.components(separatedBy: "```").first)
        let dir = try TemporaryDirectory()
        try dir.write("counter.lua", code)
        let documented = try Self.documentedScreen(in: "README.md")
        let drawn = try Self.drawn("counter.lua --tui", in: dir.url, width: 80, height: 24, keys: ["Enter"], documented: documented) {
            $0.contains("tapped 1") && $0.contains("Last tap")
        }
        #expect(drawn == documented, "README.md's screen; ckrun draws:\n\(drawn.joined(separator: "\n"))")
    }
}
