import CKTestHelpers
import Foundation
import Testing

/// Files `ckrun test` reads on a script's or a checkout's word (a chunk name coverage counts, a
/// test file under --sandbox) are regular files of bounded size, never /proc, a FIFO or a device
/// (atk-data 16, 17, 07); a sandboxed checkout's `.busted` only tightens the run (05, 12).
@Suite("ckrun test: files read on a script's word; .busted under --sandbox")
struct TestRunnerNamedFilesTests {
    /// `sh -c SCRIPT` in the fixture's directory, `$CK` the ckrun under test.
    static func shell(_ script: String, in fixture: TestRunnerFixture, timeout: TimeInterval = 60) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], directory: fixture.directory.url,
                             environment: ["CK": Ckrun.executableURL.path], timeout: timeout)
    }

    /// A chunk named after a FIFO blocked the coverage reporter in open() forever, and one named
    /// `@/dev/zero` was read until memory ran out (SIGABRT).
    @Test func coverageReadsNoFIFOOrDeviceNamedByAChunk() throws {
        let fixture = try TestRunnerFixture([
            "a_spec.lua": #"it("x", function() load("local a = 1", "@pipe.lua", "t")() load("local b = 2", "@/dev/zero", "t")() end)"#,
        ])
        let result = try Self.shell("mkfifo pipe.lua && ulimit -v 3000000 && $CK test --coverage a_spec.lua < /dev/null", in: fixture, timeout: 30)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 passed, 0 failed"), "\(result.stdout)")
        #expect(result.stderr.contains("coverage written"), "\(result.stderr)")
    }

    /// atk-safety3 10: with no --memory-limit, a test the system refused memory (ulimit -v) was
    /// "[memoryLimit] the test used more than its memory limit (0 MB); raise --memory-limit",
    /// with no line: it is the process's memory, at the test's line.
    @Test func aTestOutOfTheSystemsMemoryNamesNoLimit() throws {
        let fixture = try TestRunnerFixture([
            "b_spec.lua": """
            it("big", function()
              local keep = false while true do keep = {keep, true} end
            end)
            it("after", function() end)
            """,
        ])
        let result = try Self.shell("ulimit -v 300000 && $CK test b_spec.lua", in: fixture, timeout: 60)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[memoryLimit] b_spec.lua:2: the process ran out of memory"), "\(result.stdout)")
        #expect(!result.stdout.contains("0 MB"), "\(result.stdout)")
    }

    /// A test file linked to /proc/self/environ was loaded under --sandbox, and its syntax error
    /// printed the first variable's value.
    @Test func underTheSandboxATestFileInProcIsRefusedUnread() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("a", function() end)"#])
        let result = try Self.shell("ln -s /proc/self/environ spec/env_spec.lua && env -i API_KEY=3f8e2a9bd0c14e77 PATH=/usr/bin:/bin $CK test --sandbox spec", in: fixture)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("3f8e2a9bd0c14e77") && !result.stderr.contains("3f8e2a9bd0c14e77"), "\(result.stdout)")
        #expect(result.stdout.contains("[cannotRead]") && result.stdout.contains("(/proc, /sys)"), "\(result.stdout)")
    }

    /// `.busted` `coverage = true` under --sandbox replaced lcov.info; only -c on the command line writes it.
    @Test func underTheSandboxBustedCoverageWritesNothing() throws {
        let fixture = try TestRunnerFixture([
            ".busted": "return { default = { coverage = true } }",
            "lcov.info": "the user's report\n",
            "a_spec.lua": #"it("a", function() end)"#,
        ])
        let result = try fixture.test("--sandbox")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try fixture.read("lcov.info") == "the user's report\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.url.appendingPathComponent("luacov.stats.out").path))
    }

    /// `.busted` `timeout = 1e9` replaced --sandbox's 10 s limit: a spinning test ran until killed.
    @Test func underTheSandboxBustedOnlyLowersTheTimeLimit() throws {
        let fixture = try TestRunnerFixture([
            ".busted": "return { default = { timeout = 1e9 } }",
            "evil_spec.lua": #"it("spins", function() while true do end end)"#,
        ])
        let result = try Ckrun.run(["test", "--sandbox", "."], directory: fixture.directory.url, timeout: 30)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[timeout]"), "\(result.stdout)")
    }

    /// One short count line in luacov.stats.out dropped every earlier count, silently.
    @Test func coverageKeepsTheStatsThatParse() throws {
        let fixture = try TestRunnerFixture([
            "good.lua": "local M = {}\nfunction M.g()\n  return 2\nend\nreturn M\n",
            "a_spec.lua": #"it("a", function() dofile("good.lua").g() end)"#,
            "luacov.stats.out": "5:good.lua\n1 1 1 1 1 \n4:other/file.lua\n7 7 7 \n",
        ])
        let result = try fixture.test("--coverage", "a_spec.lua")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("[cannotRead]") && result.stderr.contains("line 4"), "\(result.stderr)")
        let stats = try fixture.read("luacov.stats.out")
        #expect(stats.contains("5:good.lua\n2 2 ") && stats.contains("3:other/file.lua\n7 7 7 \n"), "\(stats)")
    }

    /// TEST_SHARD_STATUS_FILE is touched, as Bazel asks: its bytes stay.
    @Test func theShardStatusFileIsTouchedNotEmptied() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("a", function() end)"#, "notes.txt": "notes I keep\n"])
        let result = try Ckrun.run(["test", "a_spec.lua"], directory: fixture.directory.url,
                                   environment: ["TEST_TOTAL_SHARDS": "1", "TEST_SHARD_INDEX": "0", "TEST_SHARD_STATUS_FILE": "notes.txt"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try fixture.read("notes.txt") == "notes I keep\n")
        // One in a directory that does not exist is made there; one that cannot be is said.
        let environment = ["TEST_TOTAL_SHARDS": "1", "TEST_SHARD_INDEX": "0"]
        let made = try Ckrun.run(["test", "a_spec.lua"], directory: fixture.directory.url,
                                 environment: environment.merging(["TEST_SHARD_STATUS_FILE": "bazel/out/status"]) { $1 })
        #expect(made.status == 0 && FileManager.default.fileExists(atPath: fixture.directory.url.path + "/bazel/out/status"), "\(made.stderr)")
        let blocked = try Ckrun.run(["test", "a_spec.lua"], directory: fixture.directory.url,
                                    environment: environment.merging(["TEST_SHARD_STATUS_FILE": "notes.txt/status"]) { $1 })
        #expect(blocked.stderr.contains("[cannotWrite] cannot touch TEST_SHARD_STATUS_FILE notes.txt/status: cannot make the directory notes.txt: a file of that name is in the way"), "\(blocked.stderr)")
    }
}

/// `.busted` is the checkout's word too: a FIFO there blocked `ckrun test` before any limit ran.
@Suite("ckrun test: .busted read on the checkout's word")
struct TestRunnerBustedFileTests {
    @Test func aBustedThatIsAFIFOIsAUsageError() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": #"it("a", function() end)"#])
        let result = try TestRunnerNamedFilesTests.shell("mkfifo .busted && $CK test", in: fixture, timeout: 20)
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("[cannotRead]") && result.stderr.contains("not a regular file"), "\(result.stderr)")
    }
}
