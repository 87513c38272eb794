import CKTestHelpers
import Foundation
import Testing

/// assert.tree_snapshot's diff as the text report prints it (each message line indented by 3).
/// Tests/lua/snapshot_diff_spec.lua has more cases of the diff itself.
@Suite("ckrun test: snapshot diffs")
struct TestRunnerSnapshotDiffTests {
    static let hint = "   (- snapshot, + now; run with --update-snapshots to accept)"

    /// The diff printed by a run with `environment`, after a first run wrote the snapshot.
    private func diffAfterChange(_ spec: String, _ environment: [String: String]) throws -> String {
        let fixture = try TestRunnerFixture(["tree_spec.lua": spec])
        #expect(try fixture.test().lastLine == "1 passed, 0 failed")
        let changed = try Ckrun.run(["test", "."], directory: fixture.directory.url, environment: environment)
        #expect(changed.status == 1)
        let lines = changed.lines
        let start = try #require(lines.firstIndex { $0.hasSuffix("Expected the tree to match its snapshot:") })
        let end = try #require(lines.firstIndex(of: Self.hint))
        return lines[(start + 1)...end].joined(separator: "\n")
    }

    @Test func anInsertedLineIsOneAddedLineNotEveryLaterLineChanged() throws {
        let spec = """
        it("tree", function()
          local items = {"a", "b", "c", "d"}
          if os.getenv("PREPEND") then table.insert(items, 1, "new") end
          assert.tree_snapshot("List\\n  " .. table.concat(items, "\\n  "))
        end)
        """
        let diff = try diffAfterChange(spec, ["PREPEND": "1"])
        #expect(diff == ["     List", "   +   new", "       a", "       b", "   ...", Self.hint].joined(separator: "\n"))
    }

    @Test func aFinalNewlineIsNotShownAsRemovedAndAdded() throws {
        let spec = #"it("tree", function() assert.tree_snapshot("Root\n  " .. (os.getenv("CHILD") or "A") .. "\n") end)"#
        let diff = try diffAfterChange(spec, ["CHILD": "B"])
        #expect(diff == ["     Root", "   -   A", "   +   B", Self.hint].joined(separator: "\n"))
    }
}
