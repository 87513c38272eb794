import CKTestHelpers
import Foundation
import Testing

/// A reader of standard output that goes away (`| head -c 1`) ends a run as a signal does: the
/// `--junit` file is still written whole, with what was collected and why the run ended, and
/// the process ends by SIGPIPE (before: it ended at the failed write, and wrote no JUnit file).
@Suite("ckrun test: a reader of standard output that goes away")
struct TestRunnerReaderGoneTests {
    static let files = [
        "spec/a_spec.lua": #"it("a1", function() end)"#,
        // Long enough for `head` to have read its byte and gone before this file's report.
        "spec/b_spec.lua": #"it("waits", function() os.execute("sleep 1") end)"#,
        "spec/c_spec.lua": #"it("c1", function() end)"#,
    ]

    @Test(arguments: ["1", "2"])
    func theJUnitFileIsWrittenWhole(jobs: String) throws {
        let fixture = try TestRunnerFixture(Self.files)
        let script = """
        { "$0" test --jobs \(jobs) --junit j.xml spec; echo "status $?" > status.txt; } 2> err.txt | head -c 1 > /dev/null
        """
        _ = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                 directory: fixture.directory.url, timeout: 30)
        let status = try fixture.read("status.txt"), errors = try fixture.read("err.txt")
        #expect(status.contains("status 141"), "\(status) \(errors)")
        let junit = try fixture.read("j.xml")
        #expect(junit.contains("a1") && junit.contains("[interrupted] stopped as the reader of standard output went away (SIGPIPE)"), "\(junit)")
        #expect(junit.hasSuffix("</testsuites>\n"), "\(junit)")
    }
}
