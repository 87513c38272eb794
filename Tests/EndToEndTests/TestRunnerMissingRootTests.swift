import CKTestHelpers
import Foundation
import Testing

/// A `.busted` `ROOT` path that does not exist is what the same path on the command line is, as
/// in busted: an error of the run ("Cannot find file or directory"), the other paths still run,
/// and the run fails with 1 (atk-busted6 01: ckrun refused the whole run as a usage error, 64).
@Suite("ckrun test: a missing .busted ROOT path is an error of the run")
struct TestRunnerMissingRootTests {
    static let files = [
        "spec/a_spec.lua": #"describe("a", function() it("passes", function() assert.True(true) end) end)"#,
    ]

    @Test func theOtherRootPathsRunAndTheRunFails() throws {
        var files = Self.files
        files[".busted"] = #"return { _all = { ROOT = { "spec/tests.lua", "spec" } } }"#
        let fixture = try TestRunnerFixture(files)
        for jobs in [["--jobs", "1"], ["--jobs", "2"]] {
            let result = try fixture.test(jobs)
            #expect(result.status == 1, "\(jobs): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("[cannotRead] Cannot find file or directory: spec/tests.lua"), "\(jobs): \(result.stdout)")
            #expect(result.lines.contains("ok    spec/a_spec.lua:1: a passes"), "\(jobs): \(result.stdout)")
            #expect(!result.stderr.contains("[usage]"), "\(jobs): \(result.stderr)")
        }
    }

    /// The same report as for the paths given on the command line.
    @Test func itIsReportedAsTheCommandLinesMissingPathIs() throws {
        var files = Self.files
        files[".busted"] = #"return { default = { ROOT = { "spec/tests.lua", "spec" } } }"#
        let fixture = try TestRunnerFixture(files)
        let fromConfig = try fixture.test("-o", "TAP")
        let given = try fixture.test("-o", "TAP", "spec/tests.lua", "spec")
        #expect(fromConfig.status == 1 && given.status == 1, "\(fromConfig.stdout)\(fromConfig.stderr)")
        #expect(fromConfig.stdout == given.stdout)
    }
}
