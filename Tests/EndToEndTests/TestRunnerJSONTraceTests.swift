import CKTestHelpers
import Foundation
import Testing

/// `-o json`: a failure's or error's `trace` is busted's `getTrace`, where it was raised (the
/// failing assertion's or raising line, in the function that raised, with the error as its
/// `message`), in the test, its hooks or a module's function; the `element`'s trace stays where
/// the element was registered (atk-busted6 03: both were the registration's).
@Suite("ckrun test: -o json's trace is where a failure was raised")
struct TestRunnerJSONTraceTests {
    static let fixture = [
        "src/helper.lua": """
        local M = {}
        function M.boom()
          local t
          return t.field
        end
        return M
        """,
        "spec/t_spec.lua": """
        local helper = require("helper")
        describe("d", function()
          it("fails", function()
            local x = 1
            assert.are.equal(2, x)
          end)
          it("errors", function()
            local t = nil
            return t.field
          end)
          it("nested error", function() helper.boom() end)
          it("error table", function() error({code=1}) end)
        end)
        describe("hooks be", function()
          before_each(function()
            error("be boom")
          end)
          it("x", function() end)
        end)
        describe("hooks ae", function()
          after_each(function()
            assert.is_true(false)
          end)
          it("y", function() end)
        end)
        describe("setup", function()
          setup(function()
            error("setup boom")
          end)
          it("z", function() end)
        end)
        describe("teardown", function()
          teardown(function()
            error("teardown boom")
          end)
          it("w", function() end)
        end)
        """,
    ]

    /// busted 2.1.1's values for this fixture: name → (short_src, currentline, linedefined,
    /// lastlinedefined, the element's line).
    static let expected: [String: (String, Int, Int, Int, Int)] = [
        "d fails": ("spec/t_spec.lua", 5, 3, 6, 3),
        "d errors": ("spec/t_spec.lua", 9, 7, 10, 7),
        "d nested error": ("./src/helper.lua", 4, 2, 5, 11),
        "d error table": ("spec/t_spec.lua", 12, 12, 12, 12),
        "hooks be before_each": ("spec/t_spec.lua", 16, 15, 17, 15),
        "hooks ae after_each": ("spec/t_spec.lua", 22, 21, 23, 21),
        "setup setup": ("spec/t_spec.lua", 28, 27, 29, 27),
        "teardown teardown": ("spec/t_spec.lua", 34, 33, 35, 33),
    ]

    @Test func eachFailuresTraceIsWhereItWasRaised() throws {
        let fixture = try TestRunnerFixture(Self.fixture)
        for jobs in ["1", "2"] {
            let result = try fixture.test("-o", "json", "--jobs", jobs)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let entries = ((document["failures"] as? [[String: Any]]) ?? []) + ((document["errors"] as? [[String: Any]]) ?? [])
            #expect(entries.count == Self.expected.count, "-j\(jobs): \(result.stdout)")
            for entry in entries {
                let name = entry["name"] as? String ?? "?"
                guard let (file, line, defined, last, elementLine) = Self.expected[name] else {
                    Issue.record("unexpected entry \(name)"); continue
                }
                let trace = entry["trace"] as? [String: Any] ?? [:]
                let element = (entry["element"] as? [String: Any])?["trace"] as? [String: Any] ?? [:]
                #expect(trace["short_src"] as? String == file && trace["source"] as? String == "@" + file, "\(name): \(trace)")
                #expect(trace["currentline"] as? Int == line && trace["linedefined"] as? Int == defined
                        && trace["lastlinedefined"] as? Int == last, "\(name): \(trace)")
                #expect(element["currentline"] as? Int == elementLine, "\(name): \(element)")
                // The error as raised: luassert's failure is a table with its message, an error's text is itself.
                let message = entry["message"] as? String ?? ""
                if name == "d fails" || name == "hooks ae after_each" {
                    #expect((trace["message"] as? [String: Any])?["message"] as? String == message, "\(name): \(trace)")
                } else if name != "d error table" {
                    #expect(trace["message"] as? String == message, "\(name): \(trace)")
                }
            }
        }
    }
}
