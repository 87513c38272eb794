import CKTestHelpers
import Foundation
import Testing

/// Files `ckrun test` writes for a run replace what is at their path: a symlink an untrusted
/// checkout planted there is replaced, and the file it pointed to keeps its bytes (the outsider's
/// attack after issue 24: `.busted`'s coverage under --sandbox emptied a file through lcov.info).
@Suite("ckrun test: written files replace, never write through a link")
struct TestRunnerWritesTests {
    static let precious = "precious user data\n"

    func plant(_ fixture: TestRunnerFixture, _ links: [String]) throws -> URL {
        let victim = fixture.directory.url.appendingPathComponent("victim.txt")
        try Self.precious.write(to: victim, atomically: false, encoding: .utf8)
        for link in links {
            let url = fixture.directory.url.appendingPathComponent(link)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: victim.path)
        }
        return victim
    }

    @Test func coverageAndJUnitUnderTheSandboxLeaveALinksTargetAlone() throws {
        let fixture = try TestRunnerFixture([
            ".busted": "return { default = { coverage = true } }",
            "src/m.lua": "return { f = function() return 1 end }\n",
            "x_spec.lua": "it('x', function() package.path = 'src/?.lua;' .. package.path assert.are.equal(1, require('m').f()) end)",
        ])
        let victim = try plant(fixture, ["luacov.stats.out", "lcov.info", "report.xml"])
        let result = try fixture.test("--sandbox", "--coverage", "--junit", "report.xml")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == Self.precious)
        #expect(try fixture.read("lcov.info").contains("SF:src/m.lua"))
        #expect(try fixture.read("report.xml").contains("<testsuite"))
    }

    /// `--junit spec/calc_spec.lua` (read as a flag, then the spec to run) replaced the spec with
    /// the report and exited 0. A report is never written over a Lua file or `.busted`: the option
    /// is refused before the run, and every report writer (JUnit by -Xoutput or Bazel's
    /// XML_OUTPUT_FILE, coverage) leaves such a file whole.
    @Test func aReportIsNeverWrittenOverALuaFile() throws {
        let spec = #"it("adds", function() assert.are.equal(2, 1 + 1) end)"#
        let fixture = try TestRunnerFixture(["spec/calc_spec.lua": spec])
        let refused = try fixture.test("--junit", "spec/calc_spec.lua")
        #expect(refused.status == 64, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("names a Lua source or a .busted file"), "\(refused.stderr)")
        #expect(try fixture.read("spec/calc_spec.lua") == spec)
        let bazel = try Ckrun.run(["test", "spec"], directory: fixture.directory.url, environment: ["XML_OUTPUT_FILE": "spec/calc_spec.lua"])
        #expect(bazel.status == 64, "\(bazel.stdout)\(bazel.stderr)")
        #expect(try fixture.read("spec/calc_spec.lua") == spec)
    }

    /// atk-safety3 07: `--junit __snapshots__/ui_spec.snap` replaced the committed snapshot with
    /// XML (the next run re-recorded it, accepting a regression), and `--coverage --junit
    /// lcov.info` lost the JUnit report; both exited 0. Every output passes one check: a
    /// snapshot file or another output of the run is a usage error naming both.
    @Test func aReportIsNeverWrittenOverASnapshotOrAnotherOutput() throws {
        let spec = #"it("tree", function() assert.tree_snapshot("Root") end)"#
        let fixture = try TestRunnerFixture(["ui_spec.lua": spec])
        #expect(try fixture.test("ui_spec.lua").status == 0)
        let snapshot = try fixture.read("__snapshots__/ui_spec.snap")
        let onSnapshot = try fixture.test("--junit", "__snapshots__/ui_spec.snap", "ui_spec.lua")
        #expect(onSnapshot.status == 64, "\(onSnapshot.stdout)\(onSnapshot.stderr)")
        #expect(onSnapshot.stderr.contains("a snapshot file"), "\(onSnapshot.stderr)")
        #expect(try fixture.read("__snapshots__/ui_spec.snap") == snapshot)
        let onLcov = try fixture.test("--coverage", "--junit", "lcov.info", "ui_spec.lua")
        #expect(onLcov.status == 64, "\(onLcov.stdout)\(onLcov.stderr)")
        #expect(onLcov.stderr.contains("--junit lcov.info is also the file of --coverage"), "\(onLcov.stderr)")
    }

    /// Under --sandbox an untrusted checkout's `.busted` does not choose a file for ckrun to write
    /// (`Xoutput = PATH` with `output = "junit"` replaced any file the user could write).
    @Test func underTheSandboxBustedsXoutputIsRefused() throws {
        let fixture = try TestRunnerFixture([
            ".busted": #"return { default = { output = "junit", Xoutput = "victim.txt" } }"#,
            "x_spec.lua": #"it("x", function() end)"#,
        ])
        try Self.precious.write(to: fixture.directory.url.appendingPathComponent("victim.txt"), atomically: false, encoding: .utf8)
        let result = try fixture.test("--sandbox")
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("under --sandbox the checkout's .busted does not choose where ckrun writes"), "\(result.stderr)")
        #expect(try fixture.read("victim.txt") == Self.precious)
    }

    @Test func updatedSnapshotsLeaveALinksTargetAlone() throws {
        let fixture = try TestRunnerFixture([
            "s_spec.lua": """
            it('s', function()
              local h = ck.host(function() return ck.Text{text = 'hi'} end)
              assert.tree_snapshot(h)
            end)
            """,
        ])
        let victim = try plant(fixture, ["__snapshots__/s_spec.snap"])
        let result = try fixture.test("--update-snapshots")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == Self.precious)
        #expect(try fixture.read("__snapshots__/s_spec.snap").contains("hi"))
    }

    // The safety attack's break 04: `--junit` renamed its file over a device (a copy of
    // /dev/full; /dev/null itself as root) or a FIFO, leaving a regular file in its place.
    @Test func aReportToADeviceOrAFIFOIsWrittenThereNeverReplacesIt() throws {
        let fixture = try TestRunnerFixture(["x_spec.lua": "it('x', function() end)"])
        let fifo = fixture.directory.url.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let toFIFO = try fixture.test("--junit", "fifo")
        #expect(toFIFO.status == 1)
        #expect(toFIFO.stderr.contains("[cannotWrite] cannot write the JUnit report to fifo: no process reads the FIFO"))
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
        // Copies of /dev/full (1, 7) and /dev/null (1, 3): a red run must not take the real ones.
        let full = fixture.directory.url.appendingPathComponent("full").path
        let null = fixture.directory.url.appendingPathComponent("null").path
        guard mknod(full, S_IFCHR | 0o666, 0x107) == 0, mknod(null, S_IFCHR | 0o666, 0x103) == 0 else { return }   // not root
        let toFull = try fixture.test("--junit", "full")
        #expect(toFull.status == 1)
        #expect(toFull.stderr.contains("[cannotWrite] cannot write the JUnit report to full"))
        #expect(lstat(full, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
        #expect(try fixture.test("--junit", "null").status == 0)
        #expect(lstat(null, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
    }

    /// A JUnit file in a directory that does not exist is written there (its directories made);
    /// one in a directory that cannot be made (a file in the way) loses nothing: the document
    /// goes to standard output for `-o junit -Xoutput` (busted's junit handler writes there a
    /// file it cannot open) and to standard error for `--junit`, after an error naming the path,
    /// why and what to do (it named a temporary file beside the path, and the report was lost).
    @Test func aJUnitFileThatCannotBeWrittenLosesNothing() throws {
        let fixture = try TestRunnerFixture(["x_spec.lua": "it('x', function() end)", "afile": "in the way"])
        let made = try fixture.test("-o", "junit", "-Xoutput", "new/deeper/x.xml")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try fixture.read("new/deeper/x.xml").contains("<testcase classname=\"x_spec.lua\" name=\"x\""))
        let said = "[cannotWrite] cannot write the JUnit report to afile/x.xml: cannot make the directory afile: a file of that name is in the way; name a file in a directory ckrun can make or write"
        let alone = try fixture.test("-o", "junit", "-Xoutput", "afile/x.xml")
        #expect(alone.status == 1)
        #expect(alone.stderr.contains(said + " (the report is on standard output instead)"), "\(alone.stderr)")
        #expect(alone.stdout.contains("<testcase classname=\"x_spec.lua\" name=\"x\""), "\(alone.stdout)")
        let beside = try fixture.test("-o", "TAP", "--junit", "afile/x.xml")
        #expect(beside.status == 1)
        #expect(beside.stderr.contains(said + " (the report is on standard error instead)"), "\(beside.stderr)")
        #expect(beside.stderr.contains("<testcase classname=\"x_spec.lua\" name=\"x\""), "\(beside.stderr)")
        #expect(!beside.stdout.contains("<testcase"), "\(beside.stdout)")
    }

    @Test func aReplacedReportKeepsItsPermissions() throws {
        let fixture = try TestRunnerFixture(["x_spec.lua": "it('x', function() end)", "report.xml": "old"])
        let report = fixture.directory.url.appendingPathComponent("report.xml").path
        #expect(chmod(report, 0o600) == 0)
        #expect(try fixture.test("--junit", "report.xml").status == 0)
        var st = stat()
        #expect(stat(report, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(try fixture.read("report.xml").contains("<testsuite"))
    }

    /// A snapshot file that cannot be read or written names itself, the reason and the id
    /// (before: the runner's chunk as the place, a temporary name with a table address in it,
    /// ENOENT for any reason, and a directory read as "(ckrun test: assert):293: Is a directory").
    @Test func aSnapshotThatCannotBeReadOrWrittenSaysWhich() throws {
        let spec = #"it("s", function() assert.tree_snapshot("abc") end)"#
        let blocked = try TestRunnerFixture(["s_spec.lua": spec, "__snapshots__": "a file where the directory goes\n"])
        let written = try blocked.test()
        #expect(written.status == 1)
        #expect(written.stdout.contains("[cannotWrite] cannot write the snapshot file __snapshots__/s_spec.snap: ") &&
                written.stdout.contains("cannot make the directory __snapshots__: a file of that name is in the way; run again once that is fixed") && !written.stdout.contains("ckrun-table"), "\(written.stdout)")
        let directory = try TestRunnerFixture(["s_spec.lua": spec, "__snapshots__/s_spec.snap/keep": ""])
        let read = try directory.test()
        #expect(read.status == 1)
        #expect(read.stdout.contains("[cannotRead] cannot read the snapshot file __snapshots__/s_spec.snap: not a regular file"), "\(read.stdout)")
    }
}
