import CKTestHelpers
import Foundation
import Testing

/// The live view gives the terminal back on every way out (issue 23): the shell's screen comes
/// back (the alternate screen left) and the terminal's modes are what they were (`stty -g`
/// before and after), whatever ended the run: q, Ctrl-D, Ctrl-C, SIGTERM, `--timeout`'s last resort
/// (a C function that cannot be stopped), `os.exit` in a turn.
@Suite("The live view's ways out (tmux)")
struct LiveViewExitTests {
    typealias Session = ReplTerminalTests.Session

    enum WayOut: String, CaseIterable, CustomTestStringConvertible {
        case quit, ctrlD, ctrlC, sigterm, timeout, osExit

        var testDescription: String { rawValue }

        /// The exit status the shell sees.
        var status: Int {
            switch self {
            case .quit, .ctrlD: 0
            case .ctrlC: 130
            case .sigterm: 143
            case .timeout: 1
            case .osExit: 3
            }
        }
    }

    /// ckrun started by a shell that ignores Ctrl-C itself (as an interactive shell waiting for
    /// its foreground job goes on), with the terminal's modes saved before and compared after.
    private func session(in dir: TemporaryDirectory, options: String) throws -> Session {
        let script = try dir.write("run.sh", """
            trap '' INT
            stty -g > \(dir.url.path)/before
            env CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(options) \(LiveViewTerminalTests.songList) --tui < /dev/tty &
            echo $! > \(dir.url.path)/pid
            wait $!; echo "status $?"
            stty -g > \(dir.url.path)/after
            if cmp -s \(dir.url.path)/before \(dir.url.path)/after; then echo "the terminal as it was"; else echo "the terminal changed"; fi
            sleep 30
            """)
        return try Session(command: "sh \(script.path)")
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: WayOut.allCases)
    func theTerminalIsGivenBack(_ way: WayOut) throws {
        let dir = try TemporaryDirectory()
        let s = try session(in: dir, options: way == .timeout ? "--timeout 1" : "")
        try s.wait("the live view") { $0.contains("Responder chain") }
        switch way {
        case .quit: try s.keys("q")
        case .ctrlD: try s.keys("C-d")
        case .ctrlC: try s.keys("C-c")
        case .sigterm:
            let pid = try String(contentsOf: dir.url.appendingPathComponent("pid"), encoding: .utf8)
            _ = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/kill"), ["-TERM", pid.trimmingCharacters(in: .whitespacesAndNewlines)])
        case .timeout:
            // Backtracking in C that runs for ages: only the watchdog's second tick ends it.
            try s.keys(":")
            try s.run(["send-keys", "-t", "0", "-l", #"string.rep("a", 40):find(string.rep("a?", 40) .. string.rep("a", 40))"#])
            try s.keys("Enter")
        case .osExit:
            try s.keys(":")
            try s.run(["send-keys", "-t", "0", "-l", "print('last words') os.exit(3)"])
            try s.keys("Enter")
        }
        let screen = try s.wait("the shell going on") {
            LiveViewTerminalTests.lines($0).contains("status \(way.status)") && $0.contains("the terminal ")
        }
        #expect(LiveViewTerminalTests.lines(screen).contains("the terminal as it was"), "stty -g differs after \(way):\n\(screen)")
        #expect(!screen.contains("Responder chain") && !screen.contains("generation 1 ·"), "the live view's screen is gone:\n\(screen)")
        // Where it struck (terminal attack, break 04: the last resort named no place).
        if way == .timeout { #expect(screen.replacingOccurrences(of: "\n", with: "").contains("[timeout] stdin:1: a C function, a finalizer (__gc) or a debug hook ran past the time limit"), "\(screen)") }
        if way == .osExit { #expect(LiveViewTerminalTests.lines(screen).contains("last words"), "what the turn printed is shown after") }
    }

    /// Started by `timeout` from a script, the view is outside the terminal's foreground process
    /// group (`timeout` gives it its own) and is stopped there as any full-screen program is;
    /// timeout's SIGTERM (then SIGCONT) ends it, as it ends `top` (break 05: its terminal restore
    /// stopped it again, for ever).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func sigtermEndsAViewOutsideTheForegroundGroup() throws {
        let dir = try TemporaryDirectory()
        let pidFile = dir.url.appendingPathComponent("pid").path
        let script = try dir.write("run.sh", """
            timeout 2 sh -c 'echo $$ > \(pidFile); exec "$0" "$1" --tui' \(Ckrun.executableURL.path) \(LiveViewTerminalTests.songList)
            echo "status $?"
            sleep 30
            """)
        let s = try Session(command: "sh \(script.path)")
        defer {
            // A view left stopped would outlive the test.
            if let pid = try? String(contentsOfFile: pidFile, encoding: .utf8), let id = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(id, SIGKILL)
            }
        }
        let screen = try s.wait("timeout's status") { LiveViewTerminalTests.lines($0).contains { $0.hasPrefix("status ") } }
        #expect(LiveViewTerminalTests.lines(screen).contains("status 124"), "\(screen)")
    }
}
