import CKTestHelpers
import Foundation
import Testing

@Suite("ckrun test: --fail-fast, --shuffle/--seed, --jobs and --shard")
struct TestRunnerExecutionTests {
    /// Several files with passes, failures, errors, pending tests and printed output.
    static func manyFiles() throws -> TestRunnerFixture {
        var files = ["a_spec.lua": Fixtures.mixed, "b_spec.lua": Fixtures.passing, "c_spec.lua": Fixtures.tagged]
        files["d_spec.lua"] = (1...7).map { #"it("d\#($0)", function() print("d\#($0) says hi") end)"# }.joined(separator: "\n")
        files["e_spec.lua"] = #"it("e fails", function() print("e output"); assert.are.same({1}, {2}) end)"#
        return try TestRunnerFixture(files)
    }

    @Test func failFastStopsAfterTheFirstFailure() throws {
        let fixture = try TestRunnerFixture(["a_spec.lua": Fixtures.mixed, "b_spec.lua": Fixtures.passing])
        let result = try fixture.test("--fail-fast")
        #expect(result.status == 1)
        #expect(result.outcomeLines.map { String($0.prefix(5)) } == ["ok   ", "ok   ", "FAIL "])
        #expect(result.lastLine == "2 passed, 1 failed")
        #expect(try fixture.test().lastLine == "4 passed, 2 failed, 1 skipped")
    }

    @Test func aSeedReproducesTheShuffledOrder() throws {
        let fixture = try TestRunnerFixture(["many_spec.lua": """
        describe("many", function()
          for i = 1, 20 do it("test " .. i, function() end) end
        end)
        """])
        let declared = try fixture.test().outcomeLines
        let shuffled = try fixture.test("--shuffle")
        let seedLine = try #require(shuffled.lines.first)
        #expect(seedLine.hasPrefix("Shuffled with seed "))
        let seed = try #require(seedLine.split(separator: " ").dropFirst(3).first.map(String.init))

        let again = try fixture.test("--shuffle", "--seed", seed)
        #expect(again.outcomeLines == shuffled.outcomeLines)
        // busted 2.1.1's --seed only seeds: alone it shuffles nothing.
        #expect(try fixture.test("--seed", "42").outcomeLines == declared)
        #expect(Set(shuffled.outcomeLines) == Set(declared))
        #expect(shuffled.outcomeLines != declared) // 20! orders: the same one means no shuffle happened
        #expect(shuffled.lastLine == "20 passed, 0 failed")
    }

    @Test func jobsGiveTheSameReportAsASerialRun() throws {
        let fixture = try Self.manyFiles()
        let serial = try fixture.test()
        let parallel = try fixture.test("--jobs", "2")
        let withoutTiming = { (r: ProcessResult) in
            r.lines.filter { !$0.hasPrefix("Ran ") }
                .map { $0.replacingOccurrences(of: #"0x[0-9a-f]+"#, with: "0x", options: .regularExpression) }
        }
        #expect(withoutTiming(parallel) == withoutTiming(serial))
        #expect(parallel.status == serial.status)
        #expect(parallel.lastLine == "15 passed, 3 failed, 1 skipped")
        // Shuffled runs agree too, since workers derive each file's order from the seed.
        #expect(try fixture.test("--seed", "9", "--jobs", "3").outcomeLines == fixture.test("--seed", "9").outcomeLines)
    }

    @Test func jobsIsolateFilesInTheirOwnProcesses() throws {
        // A test that kills its own process: a worker dies, the parent reports it and goes on.
        let fixture = try TestRunnerFixture([
            "a_spec.lua": """
            it("kills its process", function()
              local pid = io.open("/proc/self/stat"):read("n")
              os.execute("kill -9 " .. pid)
              while true do end
            end)
            """,
            "b_spec.lua": Fixtures.passing,
        ])
        let result = try fixture.test("--jobs", "2")
        #expect(result.outcomeLines == [
            "ERROR a_spec.lua",
            "ok    b_spec.lua:2: strings concatenates",
            "ok    b_spec.lua:3: strings repeats",
        ])
        #expect(result.stdout.contains("worker process was killed by signal 9"))
        #expect(result.lastLine == "2 passed, 1 failed")
    }

    @Test func shardsPartitionTheTestsExactly() throws {
        let fixture = try Self.manyFiles()
        let all = try fixture.test("--list").lines
        let first = try fixture.test("--list", "--shard", "1/2").lines
        let second = try fixture.test("--list", "--shard", "2/2").lines
        #expect(!first.isEmpty && !second.isEmpty)
        #expect(Set(first).isDisjoint(with: second))
        #expect((first + second).sorted() == all.sorted())
        #expect(abs(first.count - second.count) <= 2)

        // Running the shards gives the same counts as one run.
        let counts = try ["1/3", "2/3", "3/3"].map { try fixture.test("--shard", $0).lastLine }
        let total = counts.map { line in line.split(separator: ",").map { Int($0.split(separator: " ")[0])! } }
            .reduce([0, 0, 0]) { sum, c in zip(sum, c + [0]).map(+) }
        #expect(total == [15, 3, 1])
    }

    /// Under --shuffle the files' math.random still start from seeds of their own (SPEC §9), in
    /// busted's test order (before: the block shuffle reseeded it with the run's seed, as busted's
    /// does, so every file drew the same numbers).
    @Test func shuffledFilesDrawDistinctRandomNumbers() throws {
        var files: [String: String] = [:]
        for i in 1...3 { files["r\(i)_spec.lua"] = "it('r\(i)', function() print('drew ' .. math.random(1000000)) end)" }
        let fixture = try TestRunnerFixture(files)
        for arguments in [["--seed", "42", "--shuffle"], ["--shuffle-tests"]] {
            let drawn = try fixture.test(["-v"] + arguments + ["."]).lines.filter { $0.contains("drew ") }
            #expect(drawn.count == 3 && Set(drawn).count == 3, "\(arguments): \(drawn)")
        }
    }
}
