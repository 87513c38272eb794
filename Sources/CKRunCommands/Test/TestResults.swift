/// How a test ended. A failure is a failed assertion; an error is anything else raised.
enum TestStatus: String, Codable, Sendable, CaseIterable {
    case passed, failed, errored, skipped

    /// Its place in `allCases` (a table's index).
    var position: Int { Self.ordered.firstIndex { $0 == self } ?? 0 }
    private static let ordered = allCases   // made once: `allCases` builds an array each time
}

struct TestResult: Codable, Sendable {
    var name: String
    var file: String
    var line: Int
    var status: TestStatus
    /// The failure or error message, or the reason a test was skipped.
    var message: String?
    var traceback: String?
    /// What the test printed with `print` and `io.write`.
    var output: String = ""
    var seconds: Double = 0
    /// The element's own name, when it is not `name` (a test inside a block: busted's JSON
    /// `element.name`), and its descriptor when it is not "it" (a hook or block that failed, a
    /// pending test).
    var ownName: String? = nil
    var descriptor: String? = nil
    /// The seed that shuffled the block the test (or failing block) is in (busted's
    /// `randomseed`: its reports print "Random seed: N" with each such failure), or nil.
    var seed: String? = nil
    /// The file `line` is in when it is not `file`: a spec file's error raised in a module it
    /// required is placed there, as busted places it (`./src/mod.lua @ 3`).
    var source: String? = nil
    /// Where its failure or error was raised, when a line of Lua code raised it.
    var raised: RaiseSite? = nil

    /// The file of the place `line` names: every report builds a location from this and `line`.
    var placeFile: String { source ?? shownFile }

    /// The name and place every report gives an error of the run itself (no test file found, a
    /// helper that failed, a run a signal ended outside any file's tests), which has neither:
    /// busted's reports left them blank (`not ok 2 - `, `<testsuite name="">`).
    static let theRun = "(the run)"
    /// An error of the run itself: no file, no name.
    var isOfTheRun: Bool { file.isEmpty && name.isEmpty }
    /// The name a report shows: `theRun` for an error of the run.
    var shownName: String { isOfTheRun ? Self.theRun : name }
    /// The file a report shows: `theRun` for an error of the run.
    var shownFile: String { file.isEmpty ? Self.theRun : file }

    var didFail: Bool { status == .failed || status == .errored }

    /// A test's result (declared pending ones too), not an error outside the tests: a file that
    /// did not load, a hook's or a block body's.
    var isTest: Bool { descriptor == nil || descriptor == "it" || descriptor == "pending" || !didFail }
}

struct FileResult: Codable, Sendable {
    var file: String
    var tests: [TestResult] = []
    /// What the file printed outside tests: while loading, in setup and teardown.
    var output: String = ""
    var seconds: Double = 0
    /// Under --coverage: file → line (as text) → hits.
    var coverage: [String: [String: Int]]?
    /// Under --watch: the files its run loaded besides itself, as the loaders named them.
    var loadedFiles: [String] = []
    /// A failure of a file reported before, found once its state closed (an os.exit in a
    /// finalizer): no file of its own in the counts.
    var followsItsFile: Bool? = nil
    /// The status of the first `os.exit` the file called (0–255): the run's, as busted ends with it.
    var exitStatus: Int32? = nil

    var didFail: Bool { tests.contains { $0.didFail } }

    /// The errors of the run itself, not a test file's (`TestResult.theRun`).
    var isOfTheRun: Bool { file.isEmpty }
    /// The file a report names: `TestResult.theRun` for the run's own errors.
    var shownFile: String { file.isEmpty ? TestResult.theRun : file }
}

/// The counts on the last line of every run.
struct TestSummary: Sendable {
    var passed = 0, failures = 0, errors = 0, skipped = 0
    /// Errors outside the tests (counted in `errors`; JUnit's `tests` leaves them out).
    var errorsOutsideTests = 0

    init(_ files: [FileResult]) {
        for file in files {
            for test in file.tests {
                if !test.isTest { errorsOutsideTests += 1 }
                switch test.status {
                case .passed: passed += 1
                case .failed: failures += 1
                case .errored: errors += 1
                case .skipped: skipped += 1
                }
            }
        }
    }

    var failed: Int { failures + errors }
    var total: Int { passed + failed + skipped }
    var tests: Int { total - errorsOutsideTests }

    /// `N passed, N failed` plus `, N skipped` if any: CI tooling reads this line.
    var line: String {
        var text = "\(passed) passed, \(failed) failed"
        if skipped > 0 { text += ", \(skipped) skipped" }
        return text
    }
}
