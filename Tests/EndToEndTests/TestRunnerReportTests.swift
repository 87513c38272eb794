import CKTestHelpers
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("ckrun test: TAP and JUnit reports")
struct TestRunnerReportTests {
    static let files = [
        "math_spec.lua": Fixtures.mixed,
        "strings_spec.lua": Fixtures.passing,
        "weird_spec.lua": #"""
        describe("escaping <&>", function()
          it("keeps \"quotes\" & #hashes", function() print("printed <b>&</b>") end)
          it("fails with ]]> inside", function() assert.is_true(false, "bad ]]> & <stuff>\n\tsecond line") end)
        end)
        """#,
    ]

    @Test func tapIsVersion13WithDiagnosticsAndSkips() throws {
        let fixture = try TestRunnerFixture(Self.files)
        let result = try fixture.test("--output", "tap")
        let lines = result.lines
        #expect(result.status == 1)
        #expect(lines.first == "TAP version 13")
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(points.count == 9)
        #expect(lines.contains("1..9"))
        #expect(points[0] == "ok 1 - math adds")
        #expect(points[2] == "not ok 3 - math subtracts")
        // busted's form for a pending test: the directive with its reason, or its name.
        #expect(points[4] == "ok 5 - # SKIP math rounds")
        #expect(points[7] == ##"ok 8 - escaping <&> keeps "quotes" & \#hashes"##)
        // Each `not ok` is followed by an indented YAML block saying fail or error.
        let notOk = try #require(lines.firstIndex(of: "not ok 3 - math subtracts"))
        #expect(lines[notOk + 1] == "  ---")
        #expect(lines[notOk + 2] == "  severity: fail")
        #expect(lines[notOk + 3] == "  at: \"math_spec.lua:4\"")
        #expect(lines.contains("  severity: error"))
        #expect(lines.filter { $0 == "  ---" }.count == lines.filter { $0 == "  ..." }.count)
        // Only TAP on standard output: the summary goes to standard error.
        #expect(lines.last == "1..9")
        #expect(result.stderr.contains("5 passed, 3 failed, 1 skipped"))
        var inYAML = false
        for line in lines.dropFirst() {
            if line == "  ---" { inYAML = true; continue }
            if line == "  ..." { inYAML = false; continue }
            let valid = inYAML ? line.hasPrefix("  ") : (line.hasPrefix("ok ") || line.hasPrefix("not ok ")
                || line.hasPrefix("#") || line.range(of: #"^1\.\.\d+$"#, options: .regularExpression) != nil)
            #expect(valid, "not a TAP line: \(line)")
        }
    }

    /// Perl's TAP::Parser (Debian's `prove`), the reference TAP consumer, reads every test point
    /// and YAML block, control characters in messages included.
    @Test func proveReadsTheTAP() throws {
        var files = Self.files
        files["ctl_spec.lua"] = #"it("has \27[31m control \0 bytes", function() error("esc \27 nul \0 end") end)"#
        let fixture = try TestRunnerFixture(files)
        let tap = try fixture.test("--output", "tap")
        try fixture.directory.write("report.tap", tap.stdout)
        let prove = try Ckrun.runProcess(URL(fileURLWithPath: "/usr/bin/prove"), ["-v", "--exec", "cat", "report.tap"],
                                         directory: fixture.directory.url)
        #expect(!prove.stdout.contains("Parse errors"), "\(prove.stdout)")
        #expect(prove.stdout.contains("Failed 4/10 subtests"), "\(prove.stdout)")
    }

    @Test func junitCountsFailuresErrorsAndSkipsPerFile() throws {
        let fixture = try TestRunnerFixture(Self.files)
        let result = try fixture.test("--junit", "reports/junit.xml")
        #expect(result.status == 1)
        #expect(result.outcomeLines.count == 9) // the text report still goes to standard output
        let report = try JUnitReport(parsing: fixture.read("reports/junit.xml"))

        #expect(report.root == ["name": "ckrun test", "tests": "9", "failures": "2", "errors": "1", "skipped": "1"])
        #expect(report.suites.map { $0["name"] } == ["math_spec.lua", "strings_spec.lua", "weird_spec.lua"])
        #expect(report.suites[0]["tests"] == "5" && report.suites[0]["failures"] == "1"
                && report.suites[0]["errors"] == "1" && report.suites[0]["skipped"] == "1")
        #expect(report.suites[2]["failures"] == "1" && report.suites[2]["errors"] == "0")
        #expect(report.suites.allSatisfy { $0["time"] != nil })

        #expect(report.cases.count == 9)
        #expect(report.cases[0]["classname"] == "math_spec.lua" && report.cases[0]["name"] == "math adds")
        #expect(report.cases.allSatisfy { $0["time"] != nil })
        #expect(report.children["math subtracts"] == ["failure"])
        #expect(report.children["math divides"] == ["error"])
        #expect(report.children["math rounds"] == ["skipped"])
        #expect(report.children["math adds"] == [])

        // Escaped and parsed back intact, captured output included.
        #expect(report.cases[7]["name"] == #"escaping <&> keeps "quotes" & #hashes"#)
        #expect(report.text["escaping <&> keeps \"quotes\" & #hashes/system-out"] == "printed <b>&</b>\n")
        let failure = try #require(report.text["escaping <&> fails with ]]> inside/failure"])
        #expect(failure.contains("bad ]]> & <stuff>\n\tsecond line"))
        #expect(failure.contains("stack traceback:"))
        #expect(report.messages["escaping <&> fails with ]]> inside"]?.contains("bad ]]> & <stuff>\n\tsecond line") == true)
    }

    @Test func junitOutputIsExactlyTheDocumentWithTheSummaryOnStandardError() throws {
        let fixture = try TestRunnerFixture(Self.files)
        let result = try fixture.test("--output", "junit")
        #expect(result.stdout.hasPrefix("<?xml") && result.stdout.hasSuffix("</testsuites>\n"))
        #expect(result.stderr.contains("5 passed, 3 failed, 1 skipped"))
        let report = try JUnitReport(parsing: result.stdout)
        #expect(report.root["tests"] == "9")
        #expect(report.cases.count == 9)
    }

    /// A host a test left, whose destruction raises, makes that test an error: one result for the
    /// test in every format and from workers, never a pass and an error of the same test.
    @Test func aLeftHostsTeardownErrorIsTheTestsErrorOnce() throws {
        let fixture = try TestRunnerFixture(["leak_spec.lua": #"""
        ck.controller("PollerController", {invalidateController = function() error("cleanup failed") end})
        local Poller = ck.component("Poller", {scope = true})
        it("mounts", function() ck.host(Poller):mount() end)
        it("fails and leaks", function() ck.host(Poller); error("own failure") end)
        it("passes", function() end)
        """#])
        for jobs in ["1", "2"] {
            let text = try fixture.test("--jobs", jobs)
            #expect(text.outcomeLines.map { $0.prefix(5) } == ["ERROR", "ERROR", "ok   "], "\(text.stdout)")
            #expect(text.lastLine == "1 passed, 2 failed")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(fixture.test("--jobs", jobs, "-o", "json").stdout.utf8)) as? [String: Any])
            #expect(["successes", "failures", "errors"].map { (json[$0] as? [Any])?.count } == [1, 0, 2])
            let failed = (json["errors"] as? [[String: Any]])?.last?["message"] as? String ?? ""
            #expect(failed.contains("own failure") && failed.contains("[callbackFailed]"), "\(failed)")
            let tap = try fixture.test("--jobs", jobs, "-o", "tap").lines
            #expect(tap.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }.count == 3 && tap.last == "1..3")
            #expect(try JUnitReport(parsing: fixture.test("--jobs", jobs, "-o", "junit").stdout).root["tests"] == "3")
        }
    }
}

@Suite("ckrun test: results cross from Lua and from workers byte for byte")
struct TestRunnerTransportTests {
    /// Names, messages and output with the bytes the result records use as separators and
    /// escapes, and newlines: the same in the JSON report whether one process or workers ran them.
    @Test func separatorBytesSurviveInProcessAndFromWorkers() throws {
        let fixture = try TestRunnerFixture(["sep_spec.lua": #"""
        describe("names \30 with \31 separators \29 and", function()
          it("a newline\nand a fake nil \0290", function() print("out\30put\n\29") end)
          it("fails \31", function() error("message \31 with \n newline \0290 \30") end)
          pending("later \30")
        end)
        """#])
        var reports: [String] = []
        for jobs in ["1", "2"] {
            let result = try fixture.test("--jobs", jobs, "--output", "json")
            #expect(result.status == 1)
            reports.append(result.stdout)
            let json = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let errors = try #require(json["errors"] as? [[String: Any]])
            #expect(errors.first?["name"] as? String == "names \u{1E} with \u{1F} separators \u{1D} and fails \u{1F}")
            #expect((errors.first?["message"] as? String)?.hasSuffix("message \u{1F} with \n newline \u{1D}0 \u{1E}") == true)
            let passed = try #require(json["successes"] as? [[String: Any]])
            #expect(passed.first?["name"] as? String == "names \u{1E} with \u{1F} separators \u{1D} and a newline\nand a fake nil \u{1D}0")
        }
        #expect(reports[0].replacingOccurrences(of: #""duration":[0-9.e-]+"#, with: "", options: .regularExpression)
                == reports[1].replacingOccurrences(of: #""duration":[0-9.e-]+"#, with: "", options: .regularExpression))
    }
}

@Suite("ckrun test: JUnit class names")
struct JUnitClassNameTests {
    /// The issue's rule: JUnit class names are relative paths with no leading `.`.
    @Test func classNamesAreRelativePathsThatNeverStartWithADot() throws {
        let fixture = try TestRunnerFixture(["spec/deep/a_spec.lua": "it('x', function() end)"])
        let absolute = fixture.directory.url.appendingPathComponent("spec/deep/a_spec.lua").path
        for path in ["spec/deep/a_spec.lua", "./spec/deep/a_spec.lua", "spec/../spec/deep/a_spec.lua", absolute] {
            let result = try fixture.test("-o", "junit", path)
            let report = try JUnitReport(parsing: result.stdout)
            #expect(report.cases.map { $0["classname"] } == ["spec/deep/a_spec.lua"], "for \(path)")
        }
        // A path that leaves the directory and comes back is still named from the directory.
        let around = try fixture.test("-o", "junit", "../" + fixture.directory.url.lastPathComponent + "/spec")
        #expect(try JUnitReport(parsing: around.stdout).cases.first?["classname"] == "spec/deep/a_spec.lua")
    }
}

/// The parts of a JUnit document the tests check, read with Foundation's XMLParser.
final class JUnitReport: NSObject, XMLParserDelegate {
    var root: [String: String] = [:]
    var suites: [[String: String]] = []
    var cases: [[String: String]] = []
    /// Test name → names of its child elements.
    var children: [String: [String]] = [:]
    /// "test name/element" → text inside it.
    var text: [String: String] = [:]
    /// Test name → the message attribute of its failure or error.
    var messages: [String: String] = [:]
    private var currentCase: String?
    private var currentElement: String?
    private var buffer = ""

    struct ParseError: Error { let description: String }

    init(parsing xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        guard parser.parse() else { throw ParseError(description: "\(parser.parserError.map { "\($0)" } ?? "?")") }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testsuites":
            root = attributes.filter { $0.key != "time" }
        case "testsuite":
            suites.append(attributes)
        case "testcase":
            cases.append(attributes)
            currentCase = attributes["name"]
            children[attributes["name"] ?? ""] = []
        default:
            if let currentCase {
                children[currentCase, default: []].append(name)
                if let message = attributes["message"], name != "skipped" { messages[currentCase] = message }
            }
        }
        currentElement = name
        buffer = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { buffer += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "testcase" {
            currentCase = nil
        } else if let currentCase, ["failure", "error", "system-out"].contains(name) {
            text["\(currentCase)/\(name)"] = buffer
        }
        buffer = ""
    }
}
