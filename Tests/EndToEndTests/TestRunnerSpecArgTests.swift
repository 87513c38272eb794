import CKTestHelpers
import Foundation
import Testing

/// A spec file sees busted's `arg`: the runner's command line (`arg[0]` the program, `arg[-1]`
/// the interpreter, which ckrun is too, then the arguments after `test`), never the spec's path,
/// so a module's "am I the main script?" guard on `arg[0]` stays false (atk-busted6 02).
@Suite("ckrun test: a spec's arg is the runner's command line")
struct TestRunnerSpecArgTests {
    static let jobs: [[String]] = [[], ["--jobs", "2"], ["--no-auto-insulate"]]

    /// TLOBillyQ/monopoly's runner module: `arg[0]:find(name)` guards its main, which os.exits.
    @Test func aModulesMainScriptGuardStaysFalse() throws {
        let fixture = try TestRunnerFixture([
            "src/tool.lua": """
            local M = {}
            function M.add(a, b) return a + b end
            if arg and arg[0] and arg[0]:find("tool", 1, true) then os.exit(0) end
            return M
            """,
            "spec/tool_spec.lua": """
            local tool = require("tool")
            it("adds", function() assert.are.equal(3, tool.add(1, 2)) end)
            """,
            "spec/other_spec.lua": #"it("other", function() end)"#,
        ])
        for jobs in Self.jobs {
            let result = try fixture.test(jobs)
            #expect(result.status == 0 && result.lastLine == "2 passed, 0 failed", "\(jobs): \(result.stdout)\(result.stderr)")
        }
    }

    /// The same table in the file's top level and in its tests, in every process of the run.
    @Test func argIsTheProgramThenTheArgumentsAfterTest() throws {
        let fixture = try TestRunnerFixture([
            "spec/a_spec.lua": """
            local top = arg
            it("sees the command line", function()
              assert.are.equal(top, arg)
              assert.are.equal(arg[0], arg[-1])
              assert.truthy(arg[0]:find("ckrun", 1, true))
              assert.are.same({ "-o", "TAP", "--jobs", JOBS, "-e", "JOBS = '" .. JOBS .. "'", "spec" }, { table.unpack(arg) })
            end)
            """,
            "spec/b_spec.lua": #"it("b", function() assert.are.equal("spec", arg[#arg]) end)"#,
        ])
        for jobs in ["1", "2"] {
            let result = try fixture.test("-o", "TAP", "--jobs", jobs, "-e", "JOBS = '\(jobs)'", "spec")
            #expect(result.status == 0 && result.lines.contains("1..2") && !result.stdout.contains("not ok"),
                    "--jobs \(jobs): \(result.stdout)\(result.stderr)")
        }
    }
}
