/// TAP version 14: a test point per test, a YAML diagnostics block under each `not ok`,
/// `# SKIP` for pending tests, and the plan at the end (TAP allows a trailing plan).
final class TAPReporter: TestReporter {
    private var number = 0

    func start(seed: UInt64?) {
        var text = "TAP version 14\n"
        if let seed { text += "# shuffled with seed \(seed) (run again with --seed \(seed))\n" }
        StandardStreams.out(text)
    }

    func report(_ file: FileResult) {
        var text = "# \(file.file)\n"
        if !file.output.isEmpty { text += file.output.trimmingTrailingNewlines.indented("# ") + "\n" }
        for test in file.tests {
            number += 1
            let description = Self.escape(test.name)
            switch test.status {
            case .passed:
                text += "ok \(number) - \(description)\n"
            case .skipped:
                text += "ok \(number) - \(description) # SKIP \(Self.escape(test.message ?? "pending"))\n"
            case .failed, .errored:
                text += "not ok \(number) - \(description)\n" + diagnostics(test)
            }
        }
        StandardStreams.out(text)
    }

    func finish(_ files: [FileResult], summary: TestSummary, seconds: Double) {
        StandardStreams.out("1..\(number)\n")
    }

    private func diagnostics(_ test: TestResult) -> String {
        var yaml = ["severity: \(test.status == .failed ? "fail" : "error")", "at: \(Self.quoted(test.position))"]
        for (key, value) in [("message", test.message ?? ""), ("traceback", test.traceback ?? ""), ("output", test.output)]
        where !value.isEmpty {
            yaml.append(Self.block(key, value))
        }
        return (["---"] + yaml + ["..."]).joined(separator: "\n").indented("  ") + "\n"
    }

    /// A YAML literal block; the indentation indicator keeps leading spaces of the first line.
    private static func block(_ key: String, _ value: String) -> String {
        let text = value.trimmingTrailingNewlines
        let indicator = text.hasPrefix(" ") || text.hasPrefix("\t") ? "|2-" : "|-"
        return "\(key): \(indicator)\n" + text.replacingOccurrences(of: "\t", with: "    ").indented("  ")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// TAP 14 descriptions escape `\` and `#`; a newline would end the line.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "#", with: "\\#")
            .replacingOccurrences(of: "\n", with: " ")
    }
}
