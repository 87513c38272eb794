import CKTestHelpers
import Foundation
import Testing

/// Lines a pipe delivered together are read ahead by C's stdin, where a poll of descriptor 0
/// does not see them: the run serves them all before it waits again. It asked glibc's FILE
/// internals whether stdin held bytes (Linux alone); it now takes a byte non-blocking and puts it
/// back (`ckedit_stdin_ready`).
@Suite("Lines read ahead from a pipe")
struct PipedLinesReadAheadTests {
    @Test(arguments: [["repl"], ["app"]])
    func everyLineAPipeDeliveredRunsWhileThePipeStaysOpen(_ words: [String]) throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", "return ck.component('A', { render = function() return ck.Text{text = 'a'} end })")
        let run = words == ["app"] ? app.path : "repl"
        // The writer keeps the pipe open past the run's end: only lines already read can run.
        let script = "(printf 'print(\"one\")\\nprint(\"two\")\\nprint(\"three\")\\n'; sleep 5) | timeout 2 \(Ckrun.executableURL.path) \(run)"
        let r = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], timeout: 20)
        #expect(r.stdout.contains("one\ntwo\nthree\n"), "stdout:\n\(r.stdout)\nstderr:\n\(r.stderr)")
    }

    /// A terminal's Ctrl-D is read once: the look for a line read ahead took it, and the run
    /// waited for ever after the last line (lines and Ctrl-D typed before it read them).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func ctrlDTypedAheadOnATerminalStillEndsTheRun() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", "return ck.component('A', { render = function() return ck.Text{text = 'a'} end })")
        let log = dir.url.appendingPathComponent("log.txt").path
        // Standard output to a file: plain lines from the terminal (no line editor).
        let s = try ReplTerminalTests.Session(command: "sleep 1; \(Ckrun.executableURL.path) \(app.path) > \(log); echo EXIT=$?; sleep 30")
        try s.line("print('typed' .. ' ahead')")
        try s.keys("C-d")
        try s.wait("the end of the run") { $0.contains("EXIT=0") }
        let written = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(written.contains("typed ahead"), "log:\n\(written)")
    }
}
