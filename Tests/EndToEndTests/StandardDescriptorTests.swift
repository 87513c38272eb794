import CKTestHelpers
import Foundation
import Testing

/// Which descriptor each "terminal or not" decision looks at, and standard descriptors closed
/// at start: input is read from stdin whatever stdout is; a closed stdin reads as EOF.
@Suite("Standard descriptors redirected or closed")
struct StandardDescriptorTests {
    typealias Session = ReplTerminalTests.Session

    /// `ckrun app.lua > log.txt` on a terminal: typed lines are evaluated into the log, and
    /// Ctrl-D leaves (it used to echo them, evaluate nothing, and never end).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func stdoutRedirectedStillReadsTheTerminal() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let log = dir.url.appendingPathComponent("log.txt").path
        let s = try Session(command: "\(Ckrun.executableURL.path) \(app.path) > \(log); echo EXIT=$?; sleep 30")
        try s.keys("print('from' .. 'the terminal')", "Enter")
        try s.keys("C-d")
        try s.wait("the end of the run") { $0.contains("EXIT=0") }
        let written = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(written.contains("fromthe terminal"), "log:\n\(written)")
    }

    /// `ckrun app.lua <&-` and `ckrun repl <&-`: end at once with status 0 (they used to read
    /// their own signal pipe, which took descriptor 0, forever).
    @Test(arguments: ["APP", "repl"])
    func closedStdinIsEndOfInput(_ what: String) throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("counter.lua", runCounterApp)
        let argument = what == "APP" ? app.path : what
        let r = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "exec \"$0\" \"$1\" <&-", Ckrun.executableURL.path, argument], timeout: 10)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// `ckrun <&-` (no script, stdin closed) says it cannot read stdin, as `lua5.4 <&-` does
    /// (with the id), with lua5.4's status: 0 without `-` (lua.c ignores that status), 1 with
    /// it; it ran an empty script. A script's `io.read()` gets lua5.4's answer too (the
    /// descriptor reads as closed, not as /dev/null's EOF).
    @Test(arguments: [[], ["-"]])
    func noScriptWithStdinClosedCannotReadStdin(_ words: [String]) throws {
        let r = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"),
                                     ["-c", "exec \"$0\" \"$@\" <&-", Ckrun.executableURL.path] + words, timeout: 10)
        #expect(r.status == (words.isEmpty ? 0 : 1), "\(r.stderr)")
        #expect(r.stderr.contains("[cannotRead] cannot read stdin: Bad file descriptor"), "\(r.stderr)")
        let read = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"),
                                        ["-c", "exec \"$0\" -e 'print(io.read())' <&-", Ckrun.executableURL.path], timeout: 10)
        #expect(read.stdout == "nil\tBad file descriptor\t9\n", "\(read.stdout)\(read.stderr)")
    }

    /// A failing script read from standard input exits as under lua5.4: 0 when stdin is the
    /// script because nothing else was given (lua.c ignores that status), 1 when named as `-`.
    @Test(arguments: [([String](), Int32(0)), (["-"], Int32(1))])
    func aFailingStdinScriptExitsAsLuaDoes(_ words: [String], _ status: Int32) throws {
        let r = try Ckrun.run(words, stdin: "error('x')\n")
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains("stdin:1: x"), "\(r.stderr)")
    }
}
