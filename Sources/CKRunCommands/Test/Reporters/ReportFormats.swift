/// What a reporter is made with besides the results: busted's `-v`.
struct ReportOptions {
    var verbose = false
}

/// One output format of `ckrun test`: the names `-o`/`--output` and `.busted`'s `output` take
/// (ckrun's first, then busted's), whether it owns standard output (a machine format: the
/// closing `N passed, N failed` line then goes to standard error), whether the runner must
/// record each element's own name for it, and how its reporter is made. A new format is a
/// `TestReporter` and one entry in `all`.
struct ReportFormat {
    let names: [String]
    var ownsStandardOutput = true
    var needsElementNames = false
    /// busted's handler writes a document per run of `--repeat` (`EachRunReporter`).
    var documentPerRun = false
    let make: (ReportOptions) -> TestReporter

    /// Every format, the default first.
    static let all: [ReportFormat] = [
        ReportFormat(names: ["text", "utfTerminal", "plainTerminal", "sound"], ownsStandardOutput: false) {
            TextReporter(verbose: $0.verbose)
        },
        ReportFormat(names: ["gtest"], ownsStandardOutput: false) { GTestReporter(verbose: $0.verbose) },
        ReportFormat(names: ["tap", "TAP"], documentPerRun: true) { TAPReporter(verbose: $0.verbose) },
        ReportFormat(names: ["junit"]) { _ in JUnitReporter() },
        ReportFormat(names: ["json"], needsElementNames: true, documentPerRun: true) { _ in BustedJSONReporter() },
    ]

    static var text: ReportFormat { all[0] }

    /// busted's `-o junit -Xoutput FILE`: the JUnit report goes to FILE alone, nothing to standard output.
    static let junitToFile = ReportFormat(names: []) { _ in SilentReporter() }
    /// Whether this is `junitToFile`, the one format without a name.
    var isJUnitToFile: Bool { names.isEmpty }

    /// By name, or by busted's module path (`busted.outputHandlers.json`), as busted loads either.
    static func named(_ name: String) -> ReportFormat? {
        let handlers = "busted.outputHandlers."
        let name = name.hasPrefix(handlers) ? String(name.dropFirst(handlers.count)) : name
        return all.first { $0.names.contains(name) }
    }

    /// The names, for help and notes.
    static var nameList: String { all.flatMap(\.names).joined(separator: ", ") }
}
