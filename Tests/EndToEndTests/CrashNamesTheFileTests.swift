import CKTestHelpers
import Foundation
import Testing

/// atk-safety4 01: corrupted bytecode (Lua does not verify it; allowed without --sandbox, as in
/// lua5.4) segfaults the process. A serial `ckrun test` lost every result with nothing saying
/// which file crashed; now one line names it (and `--jobs`, docs/testing.md, isolates it), the
/// Swift runtime's backtrace still follows and the status is still the signal's.
@Suite("A crash names what was running")
struct CrashNamesTheFileTests {
    /// Loads corrupted copies of a dumped function until one faults (the first few hundred do,
    /// with this seed, on Debian's Lua 5.4).
    static let crashing = """
        local s = string.dump(function(a) local t = {1,2,3}; return t[a] + 1 end)
        math.randomseed(1)
        for trial = 1, 2000 do
          local b = {s:byte(1, -1)}
          for k = 1, 3 do local i = math.random(20, #b); b[i] = math.random(0,255) end
          local g = load(string.char(table.unpack(b)), "bad", "b")
          if g then pcall(g, 2) end
        end
        print("no crash")
        """

    static func shell(_ script: String, in directory: TemporaryDirectory) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script], directory: directory.url,
                             environment: ["CK": Ckrun.executableURL.path], timeout: 120)
    }

    @Test func aSerialTestRunNamesTheCrashingFile() throws {
        let dir = try TemporaryDirectory()
        try dir.write("a_ok_spec.lua", "it('ok', function() assert.equal(1, 1) end)")
        try dir.write("crash_spec.lua", "describe('crashes', function() it('bytecode', function()\n" + Self.crashing + "\nend) end)")
        let r = try Self.shell("$CK test a_ok_spec.lua crash_spec.lua; echo status=$?", in: dir)
        #expect(r.stdout.contains("status=139"), "\(r.stdout)")
        #expect(r.stderr.contains(#"ckrun: [crashed] signal 11 while ckrun test ran the test file crash_spec.lua (in or after the test "crashes bytecode"): the whole run ends here"#), "\(r.stderr)")
        #expect(r.stderr.contains("Run with --jobs 2 or more"), "\(r.stderr)")
        // The Swift runtime's backtracer still reports the fault, after the line.
        #expect(r.stderr.contains("Program crashed"), "\(r.stderr)")
        // Under --jobs the file is isolated and the others are reported.
        let jobs = try Self.shell("$CK test --jobs 2 a_ok_spec.lua crash_spec.lua; echo status=$?", in: dir)
        #expect(jobs.stdout.contains("status=1"), "\(jobs.stdout)")
        #expect(jobs.stdout.contains("crash_spec.lua: its worker process was killed by signal 11"), "\(jobs.stdout)")
    }

    @Test func aPlainRunNamesTheScript() throws {
        let dir = try TemporaryDirectory()
        try dir.write("crash.lua", Self.crashing)
        let r = try Self.shell("$CK crash.lua; echo status=$?", in: dir)
        #expect(r.stdout.contains("status=139"), "\(r.stdout)")
        #expect(r.stderr.contains("ckrun: [crashed] signal 11 while ckrun ran the script crash.lua"), "\(r.stderr)")
        #expect(r.stderr.contains("Program crashed"), "\(r.stderr)")
    }
}
