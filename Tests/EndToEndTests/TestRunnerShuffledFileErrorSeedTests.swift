import CKTestHelpers
import Foundation
import Testing

/// An error a spec file's top level raises is an error of the file's block, which busted's
/// file shuffle (`--shuffle`, `--shuffle-files`) shuffled: each format shows the seed with it, as
/// with a test's failure in a shuffled block; `--shuffle-tests` alone shuffles no file, and busted
/// shows none (atk-busted6 04).
@Suite("ckrun test: a shuffled file's own error carries the seed")
struct TestRunnerShuffledFileErrorSeedTests {
    static func fixture() throws -> TestRunnerFixture {
        try TestRunnerFixture([
            "spec/a_spec.lua": """
            local m = require("no_such_module_here")
            it("never", function() end)
            """,
        ])
    }

    @Test func eachFormatShowsTheSeedWithTheFilesError() throws {
        let fixture = try Self.fixture()
        for shuffle in ["--shuffle", "--shuffle-files"] {
            for jobs in ["1", "2"] {
                let gtest = try fixture.test(shuffle, "--seed", "5", "--jobs", jobs, "-o", "gtest")
                #expect(gtest.stdout.contains("Random seed: 5\nspec/a_spec.lua:1: module 'no_such_module_here' not found"), "\(shuffle) -j\(jobs): \(gtest.stdout)")
                let text = try fixture.test(shuffle, "--seed", "5", "--jobs", jobs)
                #expect(text.stdout.contains("Random seed: 5\n"), "\(shuffle) -j\(jobs): \(text.stdout)")
                let tap = try fixture.test(shuffle, "--seed", "5", "--jobs", jobs, "-o", "TAP")
                #expect(tap.stdout.contains("random seed: \"5\""), "\(shuffle) -j\(jobs): \(tap.stdout)")
                let json = try fixture.test(shuffle, "--seed", "5", "--jobs", jobs, "-o", "json")
                #expect(json.stdout.contains("\"randomseed\":5"), "\(shuffle) -j\(jobs): \(json.stdout)")
            }
        }
    }

    @Test func shufflingTheTestsAloneShufflesNoFile() throws {
        let result = try Self.fixture().test("--shuffle-tests", "--seed", "5", "-o", "gtest")
        #expect(result.status == 1 && !result.stdout.contains("Random seed"), "\(result.stdout)")
    }
}
