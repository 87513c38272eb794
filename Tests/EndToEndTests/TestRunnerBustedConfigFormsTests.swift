import CKTestHelpers
import Foundation
import Testing

/// `.busted` keys in every form busted 2.1.1 takes them in (its cli.lua's makeList and
/// fixupList, runner.lua's truth of a flag and concatenation of lpath), and a clear error for a
/// form it fails on. The expectations are busted's own, taken by hand (`lua5.4 /usr/bin/busted`).
@Suite("ckrun test: .busted keys in busted's forms")
struct TestRunnerBustedConfigFormsTests {
    static let fiveTests = (["a", "b", "c", "d", "e"].map { "it(\"\($0)\", function() end)" }).joined(separator: "\n")

    static func tapPoints(_ result: ProcessResult) -> [String] {
        result.lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
    }

    /// A flag is on unless false: `["shuffle-tests"] = 1` shuffled busted's tests (seed 5, with
    /// the pending one: a b e d c) and `"yes"` suppressed the pending one; ckrun read only `true`.
    @Test func aFlagIsOnByItsTruth() throws {
        let fixture = try TestRunnerFixture([
            ".busted": #"return { default = { ROOT = { "spec" }, ["shuffle-tests"] = 1, seed = 5, ["suppress-pending"] = "yes" } }"#,
            "spec/a_spec.lua": Self.fiveTests + "\npending(\"later\")",
        ])
        for jobs in [[], ["--jobs", "2"]] {
            let result = try fixture.test(["-o", "TAP"] + jobs)
            #expect(Self.tapPoints(result) == ["ok 1 - a", "ok 2 - b", "ok 3 - e", "ok 4 - d", "ok 5 - c"], "\(jobs): \(result.stdout)")
        }
    }

    /// A list key takes a string or a table; `repeat` a number in any form busted's tonumber reads.
    @Test func listsTakeAStringOrATableAndRepeatAnyNumber() throws {
        let fixture = try TestRunnerFixture(["spec/a_check.lua": #"it("one", function() end)"#])
        for pattern in [#""_check""#, #"{ "_check" }"#] {
            try fixture.directory.write(".busted", #"return { default = { pattern = \#(pattern), ["repeat"] = 2.0 } }"#)
            let result = try fixture.test("-o", "TAP")
            #expect(result.status == 0, "\(pattern): \(result.stdout)\(result.stderr)")
            #expect(Self.tapPoints(result) == ["ok 1 - one", "ok 1 - one"], "\(pattern): \(result.stdout)")
        }
    }

    /// A form busted fails on (a table of lpaths: "attempt to concatenate a table value"; a
    /// string ROOT, which its ipairs reads as no paths) is a usage error saying what to write;
    /// ckrun took the table's first path and ran the string's directory.
    @Test func aFormBustedFailsOnIsAClearError() throws {
        let fixture = try TestRunnerFixture(["spec/a_spec.lua": #"it("one", function() end)"#, "lib/m.lua": "return 1"])
        let refused: [(config: String, says: String)] = [
            (#"lpath = { "./lib/?.lua", "./src/?.lua" }"#, #"write lpath = "./lib/?.lua;./src/?.lua""#),
            (#"ROOT = "spec""#, #"write ROOT = { "spec" }"#),
            (#"helper = { "h.lua" }"#, ".busted helper is a table"),
            (#"["repeat"] = "twice""#, #".busted ["repeat"] is a string (twice): it takes a number"#),
        ]
        for (config, says) in refused {
            try fixture.directory.write(".busted", "return { default = { \(config) } }")
            let result = try fixture.test()
            #expect(result.status == 64, "\(config): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("[usage] .busted") && result.stderr.contains(says), "\(config): \(result.stderr)")
        }
    }
}
