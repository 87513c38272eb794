import CKTestHelpers
import Foundation
import Testing

/// The snapshot file is the runner's (atk-data 03, 08, 14, 02): written whole or not at all,
/// merged with what another run wrote meanwhile, beside the test file wherever a test moved the
/// working directory, and recorded under --sandbox too.
@Suite("ckrun test: the snapshot file")
struct TestRunnerSnapshotFileTests {
    /// A write that failed (here `ulimit -f`; a full disk the same) renamed the cut temporary over
    /// the good file and the run passed; now the old file stays whole and the file is an error.
    @Test func aFailedWriteKeepsTheOldFile() throws {
        let body = (1...30).map { "line \($0)" }.joined(separator: "\n")
        let fixture = try TestRunnerFixture([
            "big_spec.lua": """
            for i = 1, 30 do it("t" .. i, function() assert.tree_snapshot(("line " .. i .. (os.getenv("V") or "") .. "\\n"):rep(40)) end) end
            """,
        ])
        let first = try fixture.test("big_spec.lua")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let good = try fixture.read("__snapshots__/big_spec.snap")
        _ = body
        let result = try TestRunnerNamedFilesTests.shell("ulimit -f 8 && V=y $CK test --update-snapshots big_spec.lua", in: fixture)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[cannotWrite] cannot write the snapshot file __snapshots__/big_spec.snap: File too large"), "\(result.stdout)")
        #expect(try fixture.read("__snapshots__/big_spec.snap") == good)
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.appendingPathComponent("__snapshots__").path)
        #expect(left == ["big_spec.snap"], "\(left)")
    }

    /// atk-safety3 06: a file that left every descriptor open lost its snapshot with advice to
    /// free space; the message says the cause errno gives (SystemError.text) and what fits it.
    @Test func aSnapshotLostToOpenFilesSaysSo() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            local keep = {}
            it("snap", function() assert.tree_snapshot("Root") end)
            it("fds", function() for i = 1, 100000 do local f = io.open("/dev/null") if not f then break end keep[#keep + 1] = f end end)
            """,
        ])
        let result = try TestRunnerNamedFilesTests.shell("ulimit -n 256 && $CK test a_spec.lua", in: fixture)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Too many open files: close the files the script leaves open"), "\(result.stdout)")
        #expect(!result.stdout.contains("free space"), "\(result.stdout)")
    }

    /// atk-safety3 03: a name equal to another test's automatic key shared its entry (the second
    /// test failed against the first's tree, and --update-snapshots flipped them for ever).
    @Test func aNameEqualToAnotherTestsAutomaticKeyIsRefused() throws {
        let fixture = try TestRunnerFixture([
            "h_spec.lua": """
            it("header", function() assert.tree_snapshot("Root A") end)
            it("other", function() assert.tree_snapshot("Root B", "header #1") end)
            """,
        ])
        let result = try fixture.test("h_spec.lua")
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains(#"h_spec.lua:2: the snapshot name "header #1" (test "other") is also the automatic key of test "header"'s snapshot"#), "\(result.stdout)")
    }

    /// Another run's entries written after this file read the snapshot file are kept (two shards
    /// at once lost one's entries: the last writer won).
    @Test func aRewriteKeepsEntriesAnotherRunWrote() throws {
        let fixture = try TestRunnerFixture([
            "ui_spec.lua": """
            it("alpha", function()
              assert.tree_snapshot("A")
              local f = assert(io.open("__snapshots__/ui_spec.snap", "w"))   -- as another shard would, meanwhile
              f:write("== gamma #1\\nG\\n") f:close()
            end)
            """,
            "__snapshots__/ui_spec.snap": "",
        ])
        let result = try fixture.test("ui_spec.lua")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try fixture.read("__snapshots__/ui_spec.snap") == "== gamma #1\nG\n== alpha #1\nA\n")
    }

    /// A test that changed directory had its snapshot read and written under the new directory.
    @Test func aTestsChdirDoesNotMoveItsSnapshots() throws {
        let fixture = try TestRunnerFixture([
            "spec/ui_spec.lua": #"it("tree", function() assert(require("lfs").chdir("fixtures")) assert.tree_snapshot("Root") end)"#,
            "fixtures/spec/__snapshots__/ui_spec.snap": "== tree #1\nsomeone else's file\n",
        ])
        let result = try fixture.test("spec")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try fixture.read("spec/__snapshots__/ui_spec.snap") == "== tree #1\nRoot\n")
        #expect(try fixture.read("fixtures/spec/__snapshots__/ui_spec.snap") == "== tree #1\nsomeone else's file\n")
    }

    /// Under --sandbox a new entry failed the file with an io.open the test never made.
    @Test func theSandboxedRunnerRecordsSnapshots() throws {
        let fixture = try TestRunnerFixture(["ui_spec.lua": #"it("tree", function() assert.tree_snapshot("Root\n  A") end)"#])
        let result = try fixture.test("--sandbox", "ui_spec.lua")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 0 failed"), "\(result.stdout)")
        #expect(try fixture.read("__snapshots__/ui_spec.snap") == "== tree #1\nRoot\n  A\n")
    }
}
