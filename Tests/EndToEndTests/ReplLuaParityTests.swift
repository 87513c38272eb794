import CKTestHelpers
import Foundation
import Testing

/// The terminal REPL where an outsider found it short of `lua5.4 -i` or of docs/repl.md
/// (atk-lua 01, 04, 08).
@Suite("The terminal REPL keeps what lua -i and repl.md promise (tmux)")
struct ReplLuaParityTests {
    typealias Session = ReplTerminalTests.Session

    private static func history(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Waits up to 5 s for the history file to hold `text`.
    private static func historyHolds(_ path: String, _ text: String) -> Bool {
        for _ in 0..<100 {
            if history(path).contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// An entry is in the history file as soon as it is entered, before it runs: the line that
    /// hangs (ended by Ctrl-\) and the line calling `os.exit` are kept (they were appended only
    /// after they returned, so never).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anEntryIsKeptBeforeItRuns() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("history").path
        let command = "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path); sleep 30"
        do {
            let s = try Session(command: command, width: 100, height: 10)
            try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
            try s.line("local t = os.time() while os.time() - t < 60 do end -- slow line")
            #expect(Self.historyHolds(history, "slow\\040line"), "history:\n\(Self.history(history))")
            try s.keys("C-\\")
            try s.wait("the end of the session") { $0.contains("Quit") || $0.contains("$") || !$0.contains("slow line\n>") }
        }
        #expect(Self.history(history).contains("slow\\040line"))
        do {
            let s = try Session(command: command, width: 100, height: 10)
            try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
            try s.line("os.exit(0) -- exit line")
            #expect(Self.historyHolds(history, "exit\\040line"), "history:\n\(Self.history(history))")
        }
    }

    /// `_PROMPT` and `_PROMPT2` are the terminal REPL's prompts, as `lua5.4 -i`'s on a terminal
    /// (they were kept to "> " and ">> "); one whose `__tostring` raises is reported, and the
    /// default shown.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func promptGlobalsAreTheTerminalPrompts() throws {
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) -i; sleep 30", width: 100, height: 20)
        try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        try s.line("_PROMPT = \"my> \"; _PROMPT2 = \"..> \"")
        try s.line("if true then")
        try s.wait("_PROMPT2") { $0.contains("my> if true then\n..>") }
        try s.line("end")
        try s.line("_PROMPT = setmetatable({}, {__tostring = function() error('bad prompt') end})")
        let screen = try s.wait("the default prompt after the error") {
            $0.contains("bad prompt") && $0.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == ">"
        }
        #expect(screen.contains("stdin:1: bad prompt"), "screen:\n\(screen)")
    }

    /// A history file in a directory that does not exist: a `[cannotRead]` line says history is
    /// off, as for a device, FIFO or directory (nothing was said and the lines were lost).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aHistoryFileThatCannotBeCreatedIsSaid() throws {
        let dir = try TemporaryDirectory()
        let history = dir.url.appendingPathComponent("missing/history").path
        let s = try Session(command: "env CKRUN_HISTORY=\(history) \(Ckrun.executableURL.path); sleep 30", width: 200, height: 10)
        let screen = try s.wait("the prompt") { $0.split(separator: "\n").contains { $0.hasPrefix(">") } }
        #expect(screen.contains("[cannotRead] cannot create the history file \(history)") && screen.contains("history is off this session"),
                "screen:\n\(screen)")
    }
}
