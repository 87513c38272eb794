import CKTestHelpers
import Foundation
import Testing

/// What a new user met driving the examples with --tui (issue 23's closing look): start-up output
/// missing from the pane, a blank area for an app without views, a status-line clock that stood
/// still.
@Suite("The live view, as a newcomer finds it (tmux)")
struct LiveViewNewcomerTests {
    typealias Session = ReplTerminalTests.Session

    static func ckrun(_ arguments: String) -> String { LiveViewTerminalTests.ckrun(arguments) }
    static func lines(_ screen: String) -> [String] { LiveViewTerminalTests.lines(screen) }

    /// What the script prints while it starts is in the output pane (the view takes the terminal
    /// after the script ran), and an app without views says so instead of a blank area.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func startUpOutputAndAnAppWithoutViewsShow() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("bare.lua", """
            print("hello from start-up")
            ck.run(function() return ck.component("Bare", {})({}) end)
            io.stderr:write("a warning at start-up\\n")
            """)
        let s = try Session(command: Self.ckrun("\(app.path) --tui"))
        let screen = try s.wait("the view") { $0.contains("Nothing to focus") && $0.contains("a warning at start-up") }
        #expect(Self.lines(screen).contains("hello from start-up"), "start-up output in the pane:\n\(screen)")
        #expect(screen.contains("Bare shows nothing: its components make no views."))
        try s.keys("q")
    }

    /// Stacks have no view of their own: an app of stacks and components without views says so
    /// too (the outsider's React attack, 14: a skeleton app's area was left blank).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anAppOfStacksWithoutViewsSaysSo() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("skeleton.lua", """
            local Header = ck.component("Header", {render = function() return nil end})
            return ck.component("Skeleton", {render = function() return ck.Stack{children = {Header{}, ck.Stack{}}} end})
            """)
        let s = try Session(command: Self.ckrun("\(app.path) --tui"))
        let screen = try s.wait("the view") { $0.contains("Nothing to focus") }
        #expect(screen.contains("Skeleton shows nothing: its components make no views."), "\(screen)")
        try s.keys("q")
    }

    /// A provider that returns nil mounts an empty app: the view says so, as the piped run does
    /// ("nothing (the provider returned nil) mounted"), not "No app is mounted" (React attack, 17d).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func anAppWhoseProviderReturnedNilSaysSo() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("empty.lua", "ck.component('Placeholder', {})\nreturn function() return nil end\n")
        let s = try Session(command: Self.ckrun("\(app.path) --tui"))
        let screen = try s.wait("the view") { $0.contains("Nothing to focus") }
        #expect(screen.contains("The app is mounted and shows nothing: its provider returned nil."), "\(screen)")
        try s.keys("q")
    }

    /// A script that is no app runs as without --tui: its output reaches the terminal.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func aScriptThatIsNoAppPrintsAsWithoutTheView() throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write("plain.lua", "print('plain output')")
        let s = try Session(command: Self.ckrun("\(script.path) --tui") + "; echo \"status $?\"; sleep 30")
        let screen = try s.wait("the script's end") { Self.lines($0).contains("status 0") }
        #expect(Self.lines(screen).contains("plain output"), "\(screen)")
    }

    /// On the wall clock the status line's reading moves with nothing typed.
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func theWallClockOnTheStatusLineRuns() throws {
        let s = try Session(command: Self.ckrun("\(LiveViewTerminalTests.songList) --tui"))
        let first = try s.wait("the status line") { $0.contains("wall clock") }
        let reading = { (screen: String) in screen.range(of: #"wall clock [0-9.]+ s"#, options: .regularExpression).map { String(screen[$0]) } }
        let before = reading(first)
        try s.wait("another reading") { reading($0) != before }
        try s.keys("q")
    }
}
