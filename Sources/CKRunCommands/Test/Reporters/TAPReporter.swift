import CKCore
/// TAP version 13, which `prove` and most consumers read (14 is a superset they reject): a test
/// point per test, a YAML diagnostics block under each `not ok`, busted's `ok N - # SKIP reason` for
/// pending tests,
/// and the plan at the end (TAP allows a trailing plan).
/// With busted's `-v`, each test point follows busted's `# FILE @ LINE: full name` and what the
/// test printed, as `# ` comments (busted prints it raw, which a TAP reader may take for a line
/// of its own).
final class TAPReporter: TestReporter {
    private var number = 0
    private let verbose: Bool

    init(verbose: Bool = false) { self.verbose = verbose }

    func start(seed: UInt64?) {
        var text = "TAP version 13\n"
        if let seed { text += "# shuffled with seed \(seed) (run again with --seed \(seed))\n" }
        StandardStreams.out(text)
    }

    func report(_ file: FileResult) {
        var text = "# \(LineBreaks.escaped(file.shownFile))\n"
        if !file.output.isEmpty { text += file.output.trimmingTrailingNewlines.indented("# ") + "\n" }
        for test in file.tests {
            number += 1
            let description = Self.escape(test.shownName)
            if verbose, test.isTest {
                if test.line > 0 { text += "# \(LineBreaks.escaped(test.placeFile)) @ \(test.line): \(LineBreaks.escaped(test.name))\n" }
                if !test.didFail, !test.output.isEmpty { text += test.output.trimmingTrailingNewlines.indented("# ") + "\n" }
            }
            switch test.status {
            case .passed:
                text += "ok \(number) - \(description)\n"
            case .skipped:
                // busted's form: the reason, or the name of a test declared pending, as the directive.
                let reason = test.message.flatMap { $0 == "pending" ? nil : $0 } ?? test.name
                text += "ok \(number) - # SKIP \(Self.escape(reason))\n"
            case .failed, .errored:
                text += "not ok \(number) - \(description)\n" + diagnostics(test)
            }
        }
        StandardStreams.out(text)
    }

    func finish(_ run: ReportedRun) {
        StandardStreams.out("1..\(number)\n")
    }

    private func diagnostics(_ test: TestResult) -> String {
        var yaml = ["severity: \(test.status == .failed ? "fail" : "error")"]
        if !test.position.isEmpty { yaml.append("at: \(Self.quoted(test.position))") }
        if let seed = test.seed { yaml.append("random seed: \(Self.quoted(seed))") }   // busted's `# Random seed: N`
        for (key, value) in [("message", test.message ?? ""), ("traceback", test.traceback ?? ""), ("output", test.output)]
        where !value.isEmpty {
            yaml.append(Self.block(key, value))
        }
        return (["---"] + yaml + ["..."]).joined(separator: "\n").indented("  ") + "\n"
    }

    /// A YAML literal block (`|`: TAP's YAMLish readers take no chomping or indentation
    /// indicators), or a double-quoted scalar when the text has control characters or a line
    /// break other than LF (YAML does not allow them raw) or starts with a blank.
    private static func block(_ key: String, _ value: String) -> String {
        let text = value.trimmingTrailingNewlines
        let plain = text.unicodeScalars.allSatisfy {
            $0 == "\n" || $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F && !LineBreaks.isBreak($0))
        }
        guard plain, !text.hasPrefix(" "), !text.hasPrefix("\t"), !text.hasPrefix("\n") else { return "\(key): \(quoted(text))" }
        return "\(key): |\n" + text.replacingAll("\t", with: "    ").indented("  ")
    }

    /// A YAML double-quoted scalar: `\\`, `"` and control characters escaped.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if ByteText.isCarried(scalar) {
                    out += ByteText.shown(String(scalar))   // a byte that is not UTF-8
                } else if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else if LineBreaks.isBreak(scalar) {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16, uppercase: true)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Descriptions and directives escape `\` and `#` (a `#` starts a directive), line breaks
    /// and control characters (`LineBreaks.escaped`): a test point is one line whatever it holds.
    static func escape(_ text: String) -> String {
        LineBreaks.escaped(text.replacingAll("\\", with: "\\\\").replacingAll("#", with: "\\#"))
    }
}
