import CKTestHelpers
import Foundation
import Testing

/// `ckrun bench` as a user runs it: only the figures asked for, each with its plain-Lua baseline.
/// (No timing is checked: only that each figure is measured and reported against its baseline.)
@Suite("ckrun bench, from the command line")
struct BenchTests {
    /// The table rows of the output, by figure name.
    private func rows(_ output: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| figure") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            out[cells[0]] = Array(cells.dropFirst())
        }
        return out
    }

    @Test func noRepeatsIsAUsageError() throws {
        for repeats in ["0", "-2"] {
            let r = try Ckrun.run(["bench", "--quick", "--repeats=\(repeats)"])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stderr.contains("--repeats must be at least 1"), "\(r.stderr)")
            #expect(!r.stderr.contains("stack traceback"), "\(r.stderr)")
        }
    }

    @Test func measuresOnlyTheFiguresAskedForAgainstTheirBaselines() throws {
        let r = try Ckrun.run(["bench", "--quick", "--repeats", "1", "--only", "selector send"])
        #expect(r.status == 0, "\(r.stderr)")
        let table = rows(r.stdout)
        #expect(Set(table.keys) == ["selector send, per hop (50 responders)", "selector send, per hop, walking (no plan)"])
        for (_, cells) in table {
            #expect(cells[0].hasSuffix(" ns") && cells[1].hasSuffix(" ns"), "\(cells)")
            #expect(cells[2].hasSuffix("×"), "\(cells)")
        }
    }

    @Test func reportsTheScopeSendAndMemoryAsRatios() throws {
        let r = try Ckrun.run(["bench", "--quick", "--repeats", "1", "--only", "scope action send"])
        #expect(r.status == 0, "\(r.stderr)")
        let send = try #require(rows(r.stdout)["scope action send, 2 typed args"])
        #expect(send[3] == "baseline: plain:hit(sender, a, b)")
        let memory = try Ckrun.run(["bench", "--quick", "--repeats", "1", "--only", "memory"])
        let bytes = try #require(rows(memory.stdout)["memory per mounted component"])
        #expect(bytes[0].hasSuffix(" B") && bytes[2].hasSuffix("×"), "\(bytes)")
    }

    /// atk-safety3 05: bench refused --timeout, --memory-limit and --sandbox ("options for all"),
    /// and a --roact file that loops hung it for good; each chunk it runs is a turn now.
    @Test func theTurnLimitsStopALoopingRoactFile() throws {
        let dir = try TemporaryDirectory()
        _ = try dir.write("createReconciler.lua", "return function() end\n")
        _ = try dir.write("PropMarkers/Children.lua", "while true do end\n")
        let r = try Ckrun.run(["bench", "--timeout", "1", "--quick", "--only", "keyed", "--roact", dir.url.path], timeout: 60)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("[timeout]") && r.stderr.contains("Children.lua:1:"), "\(r.stderr)")
        let before = try Ckrun.run(["--timeout", "1", "--memory-limit", "64", "--sandbox", "bench", "--quick", "--only", "keyed", "--roact", dir.url.path], timeout: 60)
        #expect(before.status == 1 && before.stderr.contains("[timeout]"), "\(before.stderr)")
    }
}
