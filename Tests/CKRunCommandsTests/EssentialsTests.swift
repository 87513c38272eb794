@testable import CKRunCommands
import Foundation
import Testing

/// What replaced full Foundation's string, number and error helpers (the release binary links
/// FoundationEssentials only) gives what Foundation gave on the text ckrun hands them; the
/// tests link full Foundation, so each result is checked against Foundation's own.
@Suite("Essentials: full Foundation's helpers, replaced")
struct EssentialsTests {
    @Test(arguments: [("a\r\nb", "\n", "\\n"), ("a\\b\\", "\\", "\\\\"), ("x#y##", "#", "\\#"), ("tab\there", "\t", "    "),
                      ("none", "z", "y"), ("", "a", "b"), ("aaa", "aa", "b")])
    func replacingAllMatchesFoundation(text: String, target: String, replacement: String) {
        #expect(text.replacingAll(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
    }

    @Test(arguments: [" \t a b \u{00A0}\u{2003}", "\n x \n", "", "   ", "plain", "\u{3000}wide\u{3000}"])
    func trimmingBlanksMatchesFoundation(text: String) {
        #expect(text.trimmingBlanks() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: ["a/b/c.lua", "c.lua", "/", "dir/", "", "/abs/x"])
    func lastPathComponentMatchesFoundation(path: String) {
        #expect(path.lastPathComponent == (path as NSString).lastPathComponent)
    }

    @Test(arguments: [0.0, 0.005, 0.015, 1.0 / 3.0, 12345.6789, 2.675, 1e-9])
    func fixedPointMatchesFormat(value: Double) {
        #expect(fixedPoint(value, digits: 2) == String(format: "%.2f", value))
        #expect(fixedPoint(value, digits: 3) == String(format: "%.3f", value))
    }

    @Test func trailingWhitespaceAsTheRegexRemovedIt() {
        for row in ["ab  \t", "  ", "a b", "x\u{00A0}", ""] {
            let regex = row.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression)
            #expect(row.trimmingTrailingWhitespace() == regex)
        }
    }

    @Test func replLocationsGoAsTheRegexRemovedThem() {
        for message in ["(repl):1: boom", "x (repl):12: y (repl):3: z", "(repl):: kept", "(repl):4 kept", "plain"] {
            let regex = message.replacingOccurrences(of: #"\(repl\):\d+: "#, with: "", options: .regularExpression)
            #expect(ReplSession.withoutReplLocations(message) == regex)
        }
    }

    @Test func errorsSayWhatWentWrong() {
        #expect(errorText(POSIXError(.EMFILE)) == "Too many open files: close the files the script leaves open (or raise ulimit -n)")   // SystemError.text: the remedy that fits errno
        #expect(throws: (any Error).self) { try FileManager.default.createDirectory(atPath: "/dev/null/x", withIntermediateDirectories: true) }
        do { try FileManager.default.createDirectory(atPath: "/dev/null/x", withIntermediateDirectories: true) } catch {
            #expect(errorText(error) == "Not a directory")
        }
    }
}
