import CKTestHelpers
import Foundation
import Testing

/// atk-safety4 04: two tests with one full name shared the automatic keys `<name> #<n>`, numbered
/// in the order they ran: `--shuffle` made each fail against the other's tree, and
/// `--update-snapshots` under such a seed swapped the stored entries. Now neither is compared or
/// recorded, whatever the order, and the error names both tests.
@Suite("ckrun test: snapshots of tests sharing a name")
struct TestRunnerSnapshotSameNameTests {
    static let spec = """
        describe("menu", function()
          it("renders", function() assert.tree_snapshot("open") end)
          it("renders", function() assert.tree_snapshot("closed") end)
        end)
        describe("menu renders", function()
          it("other", function() assert.tree_snapshot("other") end)
        end)
        """

    @Test(arguments: [[], ["--shuffle", "--seed", "4"], ["--shuffle", "--seed", "5"], ["--update-snapshots"]])
    func sameNamedTestsAreRefusedInAnyOrder(_ options: [String]) throws {
        let fixture = try TestRunnerFixture(["ui_spec.lua": Self.spec])
        let result = try fixture.test(options + ["ui_spec.lua"])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains(#"2 tests are named "menu renders" (ui_spec.lua:2, ui_spec.lua:3)"#), "\(result.stdout)")
        #expect(result.stdout.contains("1 passed, 2 failed"), "\(result.stdout)")
        // The test named once keeps its entry; the two named alike wrote none.
        let file = try fixture.read("__snapshots__/ui_spec.snap")
        #expect(file.contains("== menu renders other #1"), "\(file)")
        #expect(!file.contains("== menu renders #"), "\(file)")
    }

    /// A name shared with a test declared later (in a block run after the first took its
    /// snapshot): the entry would still follow the run order, so it is not recorded.
    @Test(arguments: [["ui_spec.lua"], ["--shuffle", "--seed", "1", "ui_spec.lua"], ["--shuffle", "--seed", "2", "ui_spec.lua"]])
    func aNameSharedWithALaterOrFilteredTestRecordsNothing(_ arguments: [String]) throws {
        let fixture = try TestRunnerFixture(["ui_spec.lua": """
            describe("d same", function() it("x", function() assert.tree_snapshot("first") end) end)
            describe("d", function() it("same x", function() assert.tree_snapshot("second") end) end)
            """])
        let result = try fixture.test(arguments)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains(#"tests are named "d same x""#), "\(result.stdout)")
        let file = try? fixture.read("__snapshots__/ui_spec.snap")
        #expect(file == nil || !(file!.contains("== d same x #1")), "\(file ?? "")")
    }
}
