import CKTestHelpers
import Foundation
import Testing

/// A finalizer that never returns, run when the state closes at the end: Lua runs `__gc` with
/// hooks off, so nothing raises there; the time limit ends the process with `[timeout]` instead
/// of letting it hang (lua5.4 hangs), after the results are out.
@Suite("Finalizers at close, under the time limit")
struct ClosingLimitTests {
    static let looping = "local keep = setmetatable({}, {__gc = function() while true do end end})\n"

    @Test func aScriptsLoopingFinalizerEndsTheProcessWithTimeout() throws {
        let r = try Ckrun.run(["--timeout", "0.5", "-e", Self.looping + "print('body done')"], timeout: 20)
        #expect(r.stdout == "body done\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains("[timeout]") && r.stderr.contains("finalizer (__gc)"))
    }

    /// Under --jobs the file whose close did not end fails after its tests' results (its
    /// process ends before it says the close ended), and the run goes on: the worker's next
    /// file is never blamed for it.
    @Test func underJobsTheFileFailsAndTheRunGoesOn() throws {
        let fixture = try TestRunnerFixture([
            "gc_spec.lua": Self.looping + "it('passes before the close', function() end)",
            "other_spec.lua": "it('other', function() end)",
        ])
        let result = try Ckrun.run(["test", "--jobs", "2", "--timeout", "0.5", "."], directory: fixture.directory.url, timeout: 20)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.lastLine == "2 passed, 1 failed")   // the file's test, then its close's failure
        #expect(result.stdout.contains("gc_spec.lua: [timeout] gc_spec.lua:"), "\(result.stdout)")
    }

    @Test func inOneProcessTheFilesResultsArePrintedBeforeItEnds() throws {
        let fixture = try TestRunnerFixture(["gc_spec.lua": Self.looping + "it('passes before the close', function() end)"])
        let result = try Ckrun.run(["test", "--timeout", "0.5", "."], directory: fixture.directory.url, timeout: 20)
        #expect(result.status == 1)
        // Then the reports close with the file's failure (RunEnding), and the run ends.
        #expect(result.outcomeLines == ["ok    gc_spec.lua:2: passes before the close", "ERROR gc_spec.lua"])
        #expect(result.stdout.contains("[timeout] gc_spec.lua:"), "where it struck: \(result.stdout)")
        #expect(result.stdout.contains(": a C function, a finalizer (__gc) or a debug hook ran past the time limit and cannot be stopped as the file's state closed"), "\(result.stdout)")
        #expect(result.stderr.contains("[timeout]"))
    }
}
