import CKTestHelpers
import Foundation
import Testing

/// Ctrl-\ (SIGQUIT) ends ckrun as it ends lua5.4 and any Unix tool, in every mode: the terminal
/// given back as it was, then the process ended by SIGQUIT (status 131 to the shell). The Swift
/// runtime's backtracer took it for a crash (terminal attack, break 00: "Program crashed", a
/// backtrace, a 30-second prompt; under --tui the view went on and q no longer quit).
@Suite("Ctrl-\\ ends every mode (tmux)")
struct QuitSignalTests {
    typealias Session = ReplTerminalTests.Session

    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case plainLua, app, tui, repl, test

        var testDescription: String { rawValue }

        func arguments(in dir: TemporaryDirectory) throws -> String {
            switch self {
            case .plainLua: return "-e 'print(\"running\") while true do end'"
            case .app: return LiveViewTerminalTests.songList
            case .tui: return LiveViewTerminalTests.songList + " --tui"
            case .repl: return "repl"
            case .test:
                let spec = try dir.write("endless_spec.lua", """
                    describe("endless", function() it("runs", function() local tty = io.open("/dev/tty", "w") tty:write("running\\n") tty:close() while true do end end) end)
                    """)
                return "test \(spec.path)"
            }
        }

        /// What shows once the mode waits (or runs) and Ctrl-\ can be sent.
        var ready: String {
            switch self {
            case .plainLua, .test: "running"
            case .app: "mounted as app"
            case .tui: "Responder chain"
            case .repl: "Ctrl-D to leave"
            }
        }
    }

    /// The shell ignores Ctrl-C and Ctrl-\ (as an interactive shell waiting for its job does, but
    /// without putting the terminal's modes back itself); ckrun gets SIGQUIT's default, as a
    /// shell gives its foreground job.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"), arguments: Mode.allCases)
    func ctrlBackslashEndsByTheSignalWithTheTerminalGivenBack(_ mode: Mode) throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("run.sh", """
            trap '' INT QUIT
            stty -g > \(dir.url.path)/before
            env --default-signal=QUIT CKRUN_HISTORY=/dev/null \(Ckrun.executableURL.path) \(try mode.arguments(in: dir)) < /dev/tty &
            wait $!; echo "status $?"
            stty -g > \(dir.url.path)/after
            if cmp -s \(dir.url.path)/before \(dir.url.path)/after; then echo "the terminal as it was"; else echo "the terminal changed"; fi
            sleep 30
            """)
        let s = try Session(command: "sh \(script.path)")
        try s.wait("the mode running") { $0.contains(mode.ready) }
        try s.keys("C-\\")
        let screen = try s.wait("the shell going on") { $0.contains("status ") && $0.contains("the terminal ") }
        #expect(LiveViewTerminalTests.lines(screen).contains("status 131"), "ended by SIGQUIT:\n\(screen)")
        #expect(LiveViewTerminalTests.lines(screen).contains("the terminal as it was"), "stty -g differs:\n\(screen)")
        #expect(!screen.contains("crashed") && !screen.contains("Backtrace"), "no crash report:\n\(screen)")
    }
}
