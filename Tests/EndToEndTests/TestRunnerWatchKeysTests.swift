import CKTestHelpers
import Foundation
import Testing

/// `ckrun test --watch`'s keys on a terminal (issue 25): `a` all, `f` failed only, `u` update
/// snapshots, `p` filter by name, `q` quit, driven through tmux as a person types them.
@Suite("ckrun test --watch: keys on a terminal (tmux)")
struct TestRunnerWatchKeysTests {
    typealias Session = ReplTerminalTests.Session

    /// `flag.txt` is read with io.open, which --watch does not follow: writing it starts no
    /// pass, so each pass below is one a key started.
    static let spec = """
    local f = io.open("flag.txt")
    local flag = f and f:read("a") or ""
    if f then f:close() end
    it("alpha", function() end)
    it("beta", function() assert.are.equal("", flag) end)
    it("gamma", function() assert.tree_snapshot("tree " .. flag) end)
    """

    /// The screen from the last line containing `marker` on.
    static func after(_ marker: String, _ screen: String) -> String {
        guard let range = screen.range(of: marker, options: .backwards) else { return "" }
        return String(screen[range.lowerBound...])
    }

    static let waiting = "ckrun test --watch: waiting for changes"

    /// `ckrun test --watch spec` on `spec` in tmux, once its first pass and the keys are shown;
    /// the shell says "watch exited N" when it ends.
    static func watching() throws -> (TestRunnerFixture, String, Session) {
        let fixture = try TestRunnerFixture(["spec/keys_spec.lua": Self.spec])
        let dir = fixture.directory.url.path
        let command = "cd '\(dir)' && env NO_COLOR=1 '\(Ckrun.executableURL.path)' test --watch spec; echo \"watch exited $?\"; sleep 60"
        let s = try Session(command: command)
        try s.wait("the first pass and the keys") { $0.contains("3 passed, 0 failed") && $0.contains("a: all, f: failed, u: update snapshots, p: filter by name") }
        return (fixture, dir, s)
    }

    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func allFailedUpdatePatternAndQuit() throws {
        let (fixture, dir, s) = try Self.watching()
        try "x".write(toFile: dir + "/flag.txt", atomically: true, encoding: .utf8)

        try s.keys("a")
        try s.wait("every test, two now failing") {
            let pass = Self.after("every test: running 1 test file", $0)
            return pass.contains("1 passed, 2 failed") && pass.contains(Self.waiting)
        }
        try s.keys("f")
        let failed = try s.wait("the failed tests only") {
            let pass = Self.after("the tests that failed: running 1 test file", $0)
            return pass.contains("0 passed, 2 failed") && pass.contains(Self.waiting)
        }
        #expect(!Self.after("the tests that failed", failed).contains("alpha"))
        try s.keys("u")
        try s.wait("the snapshot updated") {
            let pass = Self.after("updating snapshots: running 1 test file", $0)
            return pass.contains("2 passed, 1 failed") && pass.contains(Self.waiting)
        }
        try s.keys("p")
        try s.wait("the pattern's prompt") { $0.contains("run the tests whose names match") }
        try s.keys("alpha", "Enter")
        try s.wait("the tests matching alpha") {
            let pass = Self.after("the tests matching alpha: running 1 test file", $0)
            return pass.contains("1 passed, 0 failed") && pass.contains(Self.waiting)
        }
        try s.keys("q")
        try s.wait("the end") { $0.contains("watch exited 0") }
        let snapshot = try fixture.read("spec/__snapshots__/keys_spec.snap")
        #expect(snapshot.contains("tree x"), "\(snapshot)")
    }

    /// Pasted text is no key, with or without the bracketed-paste marks: a paste holding `q`
    /// and `a` neither quits nor starts a pass; a key typed after it still acts. Before: each
    /// byte of the paste acted as a key (the watcher quit at the `q`).
    @Test(.enabled(if: ReplTerminalTests.tmux != nil, "tmux is not installed"))
    func pastedTextActsAsNoKey() throws {
        let (fixture, _, s) = try Self.watching()
        for bracketed in [false, true] { try s.paste("a quiet paste\n", bracketed: bracketed) }
        Thread.sleep(forTimeInterval: 1)
        let screen = try s.screen()
        #expect(!screen.contains("watch exited"), "\(screen)")
        #expect(!screen.contains("every test: running"), "\(screen)")
        try s.keys("q")
        try s.wait("the end") { $0.contains("watch exited 0") }
        withExtendedLifetime(fixture) {}
    }
}

