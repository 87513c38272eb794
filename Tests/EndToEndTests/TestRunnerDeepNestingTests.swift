import CKTestHelpers
import Foundation
import Testing

/// Blocks nested deeper than Lua's stack allows fail their file at the spec's line, the block
/// the runner could not run (before: `(ckrun test: run):102: stack overflow`, the runner's own
/// line, which Lua names as the overflow strikes while the runner goes deeper).
@Suite("ckrun test: blocks nested past the stack's limit")
struct TestRunnerDeepNestingTests {
    @Test(arguments: ["1", "2"])
    func theErrorNamesTheSpecsLine(jobs: String) throws {
        let fixture = try TestRunnerFixture([
            "spec/deep_spec.lua": """
            local function nest(n)
              if n == 0 then it("t", function() end) return end
              describe("d", function() nest(n - 1) end)
            end
            nest(200000)
            """,
            "spec/other_spec.lua": #"it("other", function() end)"#,
        ])
        let result = try fixture.test("--jobs", jobs, "spec")
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stdout.contains("spec/deep_spec.lua failed to load: spec/deep_spec.lua:3: stack overflow"), "\(result.stdout)")
        #expect(!result.stdout.contains("(ckrun test"), "\(result.stdout)")
        #expect(result.stdout.contains("1 passed, 1 failed"), "\(result.stdout)")
    }
}
