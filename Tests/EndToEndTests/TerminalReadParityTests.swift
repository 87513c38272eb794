import CKTestHelpers
import Foundation
import Testing

/// A script reading its terminal gets what lua5.4 (C's stdin) gets, though ckrun reads the
/// terminal through a stream of its own (`ckstdin.c`), found by an outsider side by side
/// (atk-lua 02, 06, 07, 10); each expectation is lua5.4 5.4.4's.
@Suite("Reading a terminal as lua5.4 reads it (tmux)")
struct TerminalReadParityTests {
    typealias Session = ReplTerminalTests.Session

    /// The screen's lines, each run of blanks one space (tmux shows a tab as spaces).
    private static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
    }

    /// `io.write("name? ")` then `io.read()`: the prompt shows before the read waits, as C's
    /// stdin flushes a line-buffered stdout before it reads (it showed after the answer).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aPromptWrittenWithIoWriteShowsBeforeTheRead() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("ask.lua", "io.write(\"name? \")\nlocal n = io.read()\nprint(\"hello \" .. tostring(n))\n")
        let s = try Session(command: "\(Ckrun.executableURL.path) \(script.path); sleep 30", width: 80, height: 10)
        try s.wait("the prompt before anything is typed") { Self.lines($0).contains("name?") }
        try s.line("Bob")
        let screen = try s.wait("the answer") { $0.contains("hello Bob") }
        #expect(Self.lines(screen).prefix(2) == ["name? Bob", "hello Bob"], "screen:\n\(screen)")
    }

    /// The same in the REPL: what the line writes shows before its read waits.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aPromptWrittenInTheReplShowsBeforeTheRead() throws {
        let s = try Session(command: "env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path); sleep 30", width: 80, height: 10)
        try s.wait("the prompt") { Self.lines($0).contains(">") }
        try s.line("io.write('q? ') x = io.read() print('got ' .. x)")
        try s.wait("the question before anything is typed") { Self.lines($0).contains("q?") }
        try s.line("yes")
        try s.wait("the answer") { Self.lines($0).contains("got yes") }
    }

    /// Every method of `io.stdin` on a terminal answers as lua5.4's does: seeking is ESPIPE
    /// (was EINVAL), flushing it and setvbuf succeed (they failed), and setvbuf drops what was
    /// read ahead, as glibc's does.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func standardInputMethodsAnswerAsLuaDoes() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("methods.lua", """
            local function show(name, ...)
              local t = table.pack(...)
              for i = 1, t.n do t[i] = tostring(t[i]) end
              print(name .. ":", table.concat(t, " "))
            end
            show("seekcur", io.stdin:seek("cur"))
            show("seekset", io.stdin:seek("set", 0))
            show("seekend", io.stdin:seek("end"))
            show("type", io.type(io.stdin), (tostring(io.stdin):gsub("0x%x+", "ADDR")))
            show("write", io.stdin:write("x"))
            show("close", io.stdin:close())
            show("read2", io.read(2))
            show("flush", io.stdin:flush())
            show("seekcur2", io.stdin:seek("cur"))
            show("setvbuf", io.stdin:setvbuf("no"))
            show("readl", io.read("l"))
            show("done")
            """)
        let s = try Session(command: "\(Ckrun.executableURL.path) \(script.path); sleep 30", width: 80, height: 24)
        try s.wait("the first read") { $0.contains("close:") }
        try s.line("abcd")
        try s.wait("the second read") { $0.contains("setvbuf:") }
        try s.line("line2")
        let screen = try s.wait("the end") { $0.contains("done:") }
        let shown = Self.lines(screen).filter { $0.contains(":") }
        #expect(shown == ["seekcur: nil Illegal seek 29", "seekset: nil Illegal seek 29", "seekend: nil Illegal seek 29",
                          "type: file file (ADDR)", "write: nil Bad file descriptor 9", "close: nil cannot close standard file",
                          "read2: ab", "flush: true", "seekcur2: nil Illegal seek 29", "setvbuf: true", "readl: line2", "done:"],
                "screen:\n\(screen)")
    }

    /// A background job with SIGTTIN ignored reads its terminal: EIO at once, as lua5.4's read
    /// fails (it waited for ever: select waits for keys that go to the foreground job).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aBackgroundReadFailsWithEIO() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("r.lua", "print('got', io.read()) print('second', io.read())\n")
        let s = try Session(command: "bash --norc -c \"set -m; trap '' TTIN; \(Ckrun.executableURL.path) \(script.path) & wait; echo EXIT=\\$?\"; sleep 30",
                            width: 100, height: 10)
        let screen = try s.wait("the job's end") { $0.contains("EXIT=") }
        let shown = Self.lines(screen)
        #expect(shown.contains("got nil Input/output error 5") && shown.contains("second nil Input/output error 5") && shown.contains("EXIT=0"),
                "screen:\n\(screen)")
    }

    /// A job left behind by the shell that started it (its process group orphaned) reads its
    /// terminal: EIO at once, as lua5.4's read fails (it slept for ever, a leaked process).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anOrphanedReadFailsWithEIO() throws {
        let dir = try TemporaryDirectory()
        let out = dir.url.appendingPathComponent("out").path
        // It reads once its shell has surely left (the group is orphaned then, not stopped).
        let script = try dir.write("r.lua", """
            local t = os.time() while os.time() - t < 2 do end
            local l, e, c = io.read()
            local f = io.open("\(out).part", "w") f:write(tostring(l), " ", tostring(e), " ", tostring(c), "\\n") f:close()
            os.rename("\(out).part", "\(out)")
            """)
        let s = try Session(command: "bash --norc -c \"set -m; \(Ckrun.executableURL.path) \(script.path) &\"; sleep 30", width: 100, height: 10)
        var written: String?
        for _ in 0..<200 where written == nil {
            written = try? String(contentsOfFile: out, encoding: .utf8)
            if written == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(written == "nil Input/output error 5\n", "screen:\n\((try? s.screen()) ?? "")")
    }

    /// A terminal another program left O_NONBLOCK: `io.read()` answers EAGAIN at once, as
    /// lua5.4's does (it waited for a line).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/perl"),
                   "tmux or perl is not installed"))
    func aNonBlockingTerminalAnswersEAGAIN() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("nb.lua", "local l, e, c = io.read() print('read:', l, e, c)\n")
        let nonBlocking = "/usr/bin/perl -MFcntl -e 'fcntl(STDIN, F_SETFL, fcntl(STDIN, F_GETFL, 0) | O_NONBLOCK) or die; exec @ARGV'"
        let s = try Session(command: "\(nonBlocking) \(Ckrun.executableURL.path) \(script.path); echo EXIT=$?; sleep 30", width: 100, height: 10)
        let screen = try s.wait("the read's answer") { $0.contains("EXIT=") }
        let shown = Self.lines(screen)
        #expect(shown.contains("read: nil Resource temporarily unavailable 11"), "screen:\n\(screen)")
    }
}
