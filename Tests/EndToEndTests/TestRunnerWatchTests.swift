import CKTestHelpers
import Foundation
import Testing

/// What a process wrote so far, and a wait for more.
final class OutputBuffer: @unchecked Sendable {
    private let condition = NSCondition()
    private var text = ""

    /// Reads `handle` on a thread of its own until end of file.
    init(reading handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while case let data = handle.availableData, !data.isEmpty { append(data) }
        }
    }

    private func append(_ data: Data) {
        condition.lock()
        text += String(decoding: data, as: UTF8.self)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the text satisfies `done` or the deadline passes; returns the text and whether it did.
    func wait(until deadline: Date, _ done: (String) -> Bool) -> (text: String, done: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while !done(text) {
            if !condition.wait(until: deadline) { return (text, false) }
        }
        return (text, true)
    }
}

/// `ckrun test --watch` running in a fixture's folder; its standard output and error are read
/// as they come (one pipe, in the order written). Killed when the session ends.
final class WatchSession {
    private let process = Process()
    private let output: OutputBuffer
    let fixture: TestRunnerFixture

    init(_ fixture: TestRunnerFixture, _ arguments: [String]) throws {
        self.fixture = fixture
        process.executableURL = Ckrun.executableURL
        process.arguments = ["test", "--watch"] + arguments + fixture.searchedHere(arguments)
        process.currentDirectoryURL = fixture.directory.url
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        output = OutputBuffer(reading: pipe.fileHandleForReading)
        try process.run()
    }

    deinit {
        // SIGKILL: a child spawned from a Dispatch thread inherits its mask, SIGTERM blocked.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    static let waitingLine = "ckrun test --watch: waiting for changes"

    /// Waits (two minutes at most) until the output satisfies `done`; returns the output.
    @discardableResult
    func wait(for what: String, _ done: (String) -> Bool) -> String {
        let (text, finished) = output.wait(until: Date().addingTimeInterval(120), done)
        if !finished { Issue.record("timed out waiting for \(what); output so far:\n\(text)") }
        return text
    }

    /// The `number`-th pass's output (its header line first, from the second on), once the
    /// pass is over: the watcher then says it waits, its watches set.
    func pass(_ number: Int) -> String {
        let output = wait(for: "pass \(number)") { $0.components(separatedBy: Self.waitingLine).count > number }
        let passes = output.components(separatedBy: Self.waitingLine)
        guard passes.count > number else { return "" }
        // Each piece starts with the rest of the previous waiting line.
        let piece = passes[number - 1]
        return number == 1 ? piece : String(piece.drop { $0 != "\n" }.dropFirst())
    }

    /// The watcher's own lines so far (the headers of passes, and of changes that ran nothing).
    var headers: [String] {
        wait(for: "output") { _ in true }.split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("ckrun test --watch: ") && !$0.hasPrefix(Self.waitingLine) }
    }

    /// Writes a file in place (open, truncate, write, close), as most editors without atomic saves do.
    func edit(_ name: String, _ contents: String) throws {
        let url = fixture.directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: fixture.directory.url.appendingPathComponent(name))
    }
}

@Suite("ckrun test --watch: the affected test files re-run")
struct TestRunnerWatchTests {
    static let moduleUser = #"local m = require("mod")\#nit("uses mod", function() assert.are.equal(1, m.one()) end)"#
    static let helperUser = #"local u = require("util")\#nit("uses util", function() assert.are.equal("u", u) end)"#
    static let plain = #"it("plain", function() end)"#

    static func project() throws -> TestRunnerFixture {
        try TestRunnerFixture([
            "spec/a_spec.lua": moduleUser, "spec/b_spec.lua": helperUser, "spec/c_spec.lua": plain,
            "spec/util.lua": "return 'u'", "src/mod.lua": "return { one = function() return 1 end }",
        ])
    }

    @Test func aChangedModuleReRunsOnlyTheTestFilesThatLoadedIt() throws {
        let session = try WatchSession(Self.project(), ["spec"])
        #expect(session.pass(1).contains("3 passed, 0 failed"))
        try session.edit("src/mod.lua", "return { one = function() return 2 end }")
        let second = session.pass(2)
        #expect(second.hasPrefix("\nckrun test --watch: src/mod.lua changed: running 1 test file\n"), "\(second)")
        #expect(second.contains("FAIL  spec/a_spec.lua:2: uses mod"))
        #expect(!second.contains("b_spec") && !second.contains("c_spec"))
        // A module found beside the test file (ckrun's searcher), outside src/.
        try session.edit("spec/util.lua", "return 'v'")
        let third = session.pass(3)
        #expect(third.contains("ckrun test --watch: spec/util.lua changed: running 1 test file"))
        #expect(third.contains("FAIL  spec/b_spec.lua:2: uses util"))
        #expect(!third.contains("a_spec") && !third.contains("c_spec"))
        // A file no test loaded: nothing runs, one line says so.
        try session.edit("spec/notes.txt", "hello")
        session.wait(for: "the note") { $0.contains("ckrun test --watch: spec/notes.txt changed, but no test file loads it: nothing to run") }
    }

    /// A one-file pass runs in the watcher's own process, which installs the time limit's alarm
    /// handler; a worker forked after that starts with SIGALRM's default action and must install
    /// the handler again: a spinning test ends with [timeout], not its worker killed by signal 14.
    @Test func aForkedWorkerStopsALoopWithTheTimeLimitAfterAnInProcessPass() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": Self.plain, "spec/b_spec.lua": Self.plain])
        let session = try WatchSession(fixture, ["--jobs", "2", "--timeout", "0.5", "spec"])
        #expect(session.pass(1).contains("2 passed, 0 failed"))
        try session.edit("spec/a_spec.lua", #"it("plain again", function() end)"#)
        #expect(session.pass(2).contains("1 passed, 0 failed"))
        try session.edit("spec/b_spec.lua", #"it("spins", function() while true do end end)"#)
        try session.edit("spec/a_spec.lua", #"it("plain", function() end)"#)
        let third = session.pass(3)
        #expect(third.contains("ERROR spec/b_spec.lua:1: spins"), "\(third)")
        #expect(third.contains("[timeout]"))
        #expect(!third.contains("signal 14"))
    }

    /// A test that writes a file it loads changes it during every pass: one more pass, then the
    /// watcher waits for a change of the user's, instead of running forever.
    @Test func aTestThatWritesWhatItLoadsDoesNotLoopTheWatcher() throws {
        let fixture = try TestRunnerFixture(["spec/w_spec.lua": """
        it("writes and loads", function()
          local f = io.open("spec/fixture.lua", "w"); f:write("return 1\\n"); f:close()
          assert.are.equal(1, dofile("spec/fixture.lua"))
        end)
        """])
        let session = try WatchSession(fixture, ["spec"])
        #expect(session.pass(1).contains("1 passed, 0 failed"))
        #expect(session.pass(2).contains("changed while the tests ran"))
        try session.edit("spec/w_spec.lua", """
        it("writes and loads, edited", function()
          local f = io.open("spec/fixture.lua", "w"); f:write("return 1\\n"); f:close()
          assert.are.equal(1, dofile("spec/fixture.lua"))
        end)
        """)
        #expect(session.pass(3).contains("spec/w_spec.lua changed: running 1 test file"))
        // Only the edit started a pass after the second: four would mean the writes go on starting passes.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(session.wait(for: "output") { _ in true }.components(separatedBy: WatchSession.waitingLine).count == 4)
    }

    @Test func withNoPathOnlyTheAffectedFilesRun() throws {
        let fixture = try TestRunnerFixture([
            "a_test.lua": Self.moduleUser, "b_test.lua": Self.plain, "src/mod.lua": "return { one = function() return 1 end }",
        ])
        let session = try WatchSession(fixture, [])
        #expect(session.pass(1).contains("2 passed, 0 failed"))
        try session.edit("src/mod.lua", "return { one = function() return 1 end } -- edited")
        let second = session.pass(2)
        #expect(second.contains("ckrun test --watch: src/mod.lua changed: running 1 test file"))
        #expect(second.contains("ok    a_test.lua:2: uses mod"))
        #expect(!second.contains("b_test"))
    }

    @Test func dofileLoadfileAndTheHelperAreFollowed() throws {
        let fixture = try TestRunnerFixture([
            "spec/d_spec.lua": #"local n = dofile("data/n.lua")\#nit("reads n", function() assert.are.equal(1, n) end)"#,
            "spec/l_spec.lua": #"local f = loadfile("data/f.lua")\#nit("loads f", function() assert.are.equal(1, f()) end)"#,
            "spec/helper.lua": "HELPED = true",
            "data/n.lua": "return 1", "data/f.lua": "return 1",
        ])
        let session = try WatchSession(fixture, ["--helper", "spec/helper.lua", "spec"])
        #expect(session.pass(1).contains("2 passed, 0 failed"))
        try session.edit("data/n.lua", "return 2")
        let second = session.pass(2)
        #expect(second.contains("data/n.lua changed: running 1 test file") && second.contains("FAIL  spec/d_spec.lua"))
        #expect(!second.contains("l_spec"))
        try session.edit("data/f.lua", "return 2")
        let third = session.pass(3)
        #expect(third.contains("data/f.lua changed: running 1 test file") && third.contains("FAIL  spec/l_spec.lua"))
        #expect(!third.contains("d_spec"))
        try session.edit("spec/helper.lua", "HELPED = 2")
        #expect(session.pass(4).contains("spec/helper.lua changed: running 2 test files"))
    }

    @Test func testFilesComeAndGo() throws {
        let fixture = try TestRunnerFixture([
            "spec/a_spec.lua": Self.helperUser, "spec/gone_spec.lua": Self.helperUser, "spec/util.lua": "return 'u'",
        ])
        let session = try WatchSession(fixture, ["spec"])
        #expect(session.pass(1).contains("2 passed, 0 failed"))
        try session.remove("spec/gone_spec.lua")
        session.wait(for: "the removal") { $0.contains("ckrun test --watch: spec/gone_spec.lua removed: nothing to run\n") }
        try session.edit("spec/new_spec.lua", Self.helperUser)
        let second = session.pass(2)
        #expect(second.contains("ckrun test --watch: spec/new_spec.lua added: running 1 test file"))
        #expect(second.contains("ok    spec/new_spec.lua:2: uses util"))
        // A directory made with a test file in it: found by discovery, whatever the events caught.
        try session.edit("spec/deeper/d_spec.lua", Self.plain)
        #expect(session.pass(3).contains("ok    spec/deeper/d_spec.lua:1: plain"))
        try session.edit("spec/util.lua", "return 'v'")
        let fourth = session.pass(4)
        #expect(fourth.contains("spec/util.lua changed: running 2 test files"))
        #expect(fourth.contains("FAIL  spec/a_spec.lua") && fourth.contains("FAIL  spec/new_spec.lua"))
        #expect(!session.wait(for: "output") { _ in true }.contains("ERROR"))
    }

    /// The test directory moved aside and made again (a tool writing a new spec/): its files
    /// run, and later edits there run too; the moved one is no longer watched. Its watch stayed
    /// on the moved directory and a new spec/ was never watched: nothing in it ever ran, no line
    /// said so (atk-data 11).
    @Test func aTestDirectoryMadeAgainIsWatchedAgain() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": Self.plain])
        let session = try WatchSession(fixture, ["spec"])
        #expect(session.pass(1).contains("1 passed, 0 failed"))
        let root = fixture.directory.url
        try FileManager.default.moveItem(at: root.appendingPathComponent("spec"), to: root.appendingPathComponent("old-spec"))
        session.wait(for: "the move") { $0.contains("spec/a_spec.lua removed: nothing to run") }
        try session.edit("old-spec/a_spec.lua", #"it("in the old directory", function() end)"#)
        try session.edit("spec/b_spec.lua", #"it("b", function() error("b is broken") end)"#)
        let second = session.pass(2)
        #expect(second.contains("spec/b_spec.lua:1: b") && !second.contains("old directory"), "\(second)")
        try session.edit("spec/b_spec.lua", #"it("b edited", function() end)"#)
        let third = session.pass(3)
        #expect(third.contains("spec/b_spec.lua changed: running 1 test file") && third.contains("b edited"), "\(third)")
    }

    @Test func aFilePathWatchesThatFileAndWhatItLoads() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"local h = require("h")\#nit("one", function() assert.are.equal(1, h) end)"#,
            "h.lua": "return 1", "other_spec.lua": #"it("other", function() end)"#,
        ])
        let session = try WatchSession(fixture, ["a_spec.lua"])
        #expect(session.pass(1).contains("1 passed, 0 failed"))
        try session.edit("a_spec.lua", #"local h = require("h")\#nit("one", function() end)\#nit("two", function() end)"#)
        let second = session.pass(2)
        #expect(second.contains("ckrun test --watch: a_spec.lua changed: running 1 test file") && second.contains("2 passed, 0 failed"))
        try session.edit("h.lua", "return 2")
        #expect(session.pass(3).contains("ckrun test --watch: h.lua changed: running 1 test file"))
        try session.edit("other_spec.lua", #"it("other", function() end) -- edited"#)
        session.wait(for: "the note") { $0.contains("other_spec.lua changed, but no test file loads it: nothing to run") }
        #expect(!session.wait(for: "output") { _ in true }.contains("other_spec.lua:1"))
    }

    @Test func filesTheDiscoveryRulesLeaveOutDoNotRun() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": Self.plain, "spec/slow_spec.lua": #"it("excluded", function() end)"#])
        let session = try WatchSession(fixture, ["--exclude-pattern", "slow", "spec"])
        #expect(session.pass(1).contains("1 passed, 0 failed"))
        try session.edit("spec/slow_spec.lua", #"it("excluded", function() end) -- edited"#)
        session.wait(for: "the note") { $0.contains("spec/slow_spec.lua changed, but no test file loads it: nothing to run") }
        try session.edit("spec/slower_spec.lua", #"it("excluded too", function() end)"#)
        session.wait(for: "the second note") { $0.contains("spec/slower_spec.lua changed, but no test file loads it: nothing to run") }
        try session.edit("spec/fast_spec.lua", Self.plain)
        #expect(session.pass(2).contains("ckrun test --watch: spec/fast_spec.lua added: running 1 test file"))
        #expect(!session.wait(for: "output") { _ in true }.contains("excluded"))
    }

    @Test func theRunsOwnOutputsStartNoPass() throws {
        let fixture = try TestRunnerFixture([
            "a_test.lua": #"local m = require("m")\#nit("snap", function() assert.tree_snapshot("tree " .. m) end)"#,
            "b_test.lua": Self.plain, "src/m.lua": "return 'one'",
        ])
        // The working directory's whole tree is watched; every pass writes coverage, JUnit and snapshots there.
        let session = try WatchSession(fixture, ["--coverage", "--junit", "report.xml", "--update-snapshots"])
        #expect(session.pass(1).contains("2 passed, 0 failed"))
        try session.edit("src/m.lua", "return 'two'")
        #expect(session.pass(2).contains("ckrun test --watch: src/m.lua changed: running 1 test file"))
        #expect(try fixture.read("__snapshots__/a_test.snap").contains("tree two"))
        // A snapshot edited by hand is a change to the test file that reads it.
        try session.edit("__snapshots__/a_test.snap", "== snap #1\ntree zero\n")
        #expect(session.pass(3).contains("ckrun test --watch: __snapshots__/a_test.snap changed: running 1 test file"))
        try session.edit("b_test.lua", Self.plain + " -- edited")
        #expect(session.pass(4).contains("ckrun test --watch: b_test.lua changed: running 1 test file"))
        // No header but those of the three changes: no pass started itself.
        #expect(session.headers.count == 3, "\(session.headers)")
    }

    @Test func atomicSavesAndScratchFilesNameOnlyTheRealFile() throws {
        let session = try WatchSession(Self.project(), ["spec"])
        let header = "ckrun test --watch: spec/c_spec.lua changed: running 1 test file"
        #expect(session.pass(1).contains("3 passed, 0 failed"))
        // sed -i: a temporary file in the same directory, renamed over the original.
        let sed = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sed"), ["-i", "s/plain/plainer/", "spec/c_spec.lua"],
                                       directory: session.fixture.directory.url)
        #expect(sed.status == 0)
        #expect(session.pass(2).contains(header + "\n"))
        // Foundation's atomic write (a temporary file renamed into place).
        try session.fixture.directory.write("spec/c_spec.lua", #"it("atomic", function() end)"#)
        #expect(session.pass(3).contains(header + "\n"))
        // vim: a swap file, the 4913 probe, the original renamed to a backup, a new file written.
        try session.edit("spec/.c_spec.lua.swp", "swap")
        try session.edit("spec/4913", "")
        try session.remove("spec/4913")
        try FileManager.default.moveItem(at: session.fixture.directory.url.appendingPathComponent("spec/c_spec.lua"),
                                         to: session.fixture.directory.url.appendingPathComponent("spec/c_spec.lua~"))
        try session.edit("spec/c_spec.lua", #"it("vim", function() end)"#)
        try session.remove("spec/c_spec.lua~")
        #expect(session.pass(4).contains("ok    spec/c_spec.lua:1: vim"))
        #expect(session.headers == Array(repeating: header, count: 3), "\(session.headers)")
    }

    @Test func aModuleNotFoundRunsAgainWhenItAppears() throws {
        let fixture = try TestRunnerFixture([
            "spec/later_spec.lua": #"local later = require("later")\#nit("later", function() assert.are.equal(1, later) end)"#,
            "src/other.lua": "return 0",
        ])
        let session = try WatchSession(fixture, ["spec"])
        #expect(session.pass(1).contains("0 passed, 1 failed"))
        try session.edit("src/later.lua", "return 1")
        let second = session.pass(2)
        #expect(second.contains("ckrun test --watch: src/later.lua changed: running 1 test file"))
        #expect(second.contains("1 passed, 0 failed"))
    }

    @Test func jobsWorkersSendTheLoadedFilesBack() throws {
        let session = try WatchSession(Self.project(), ["--jobs", "2", "spec"])
        #expect(session.pass(1).contains("3 passed, 0 failed"))
        try session.edit("src/mod.lua", "return { one = function() return 3 end }")
        let second = session.pass(2)
        #expect(second.contains("ckrun test --watch: src/mod.lua changed: running 1 test file"))
        #expect(second.contains("FAIL  spec/a_spec.lua:2: uses mod"))
    }
}
