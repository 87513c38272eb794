import CKTestHelpers
import Foundation
import Testing

/// How the REPL prints results: what it costs, what its errors name, how strings and keys read
/// (atk-repl 04, 05, 08, 10, 18).
@Suite("The REPL's printing of results")
struct ReplPrintingTests {
    /// Printing shows 50 entries and reads no more, whatever `__len` says: a proxy sequence with
    /// `__len = math.maxinteger` hung the REPL (its loop ran to `#t`).
    @Test func aTableCostsWhatItShows() throws {
        let proxy = "=setmetatable({}, {__index = function(t, i) return i * i end, __len = function() return math.maxinteger end})\n"
        let r = try Ckrun.run(["repl"], stdin: proxy + "=1\n", timeout: 20)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("{\n  1,\n  4,\n  9,\n"), "\(r.stdout.prefix(200))")
        #expect(r.stdout.hasSuffix("  2500,\n  … (9223372036854775757 more)\n}\n1\n"), "\(r.stdout.suffix(200))")
    }

    /// An error or a limit while a result prints is the user's code's, named by its line: no
    /// frame or place of the REPL's own chunk "(repl)" (it said "[timeout] (repl):44").
    @Test func errorsWhilePrintingNameOnlyTheUsersCode() throws {
        let input = """
            =setmetatable({}, {__tostring = function() error("ts boom") end})
            =setmetatable({}, {__pairs = function() error("pairs boom") end})
            =setmetatable({}, {__len = function() return 3 end, __index = function() while true do end end})
            print("after")

            """
        let r = try Ckrun.run(["repl", "--timeout", "1"], stdin: input, timeout: 30)
        #expect(r.stdout == "after\n", "\(r.stdout)")
        #expect(r.stderr.contains("stdin:1: ts boom") && r.stderr.contains("stdin:1: pairs boom"), "\(r.stderr)")
        #expect(r.stderr.contains("[timeout] stdin:1:"), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)"), "\(r.stderr)")
    }

    /// A line nested too deeply to compile is a syntax error with Lua's message: no traceback of
    /// the REPL's own `load` spliced into the sentence.
    @Test func aTooDeepLineIsAPlainSyntaxError() throws {
        let deep = "x = " + String(repeating: "{", count: 300) + String(repeating: "}", count: 300) + "\n"
        let r = try Ckrun.run(["repl"], stdin: deep)
        #expect(r.stderr.hasPrefix("[syntaxError] stdin"), "\(r.stderr)")
        #expect(r.stderr.contains("C stack overflow; the line did not run"), "\(r.stderr)")
        #expect(!r.stderr.contains("(repl)") && !r.stderr.contains("traceback"), "\(r.stderr)")
    }

    /// Strings print as the dump quotes them (one escaper): a byte that is not UTF-8 is `\255`,
    /// not U+FFFD (two different strings printed alike).
    @Test func bytesThatAreNotUTF8PrintEscaped() throws {
        let r = try Ckrun.run(["repl"], stdin: "\"\\xff\\xfe\"\n={\"\\x80abc\", \"a\\tb\\n\"}\n")
        #expect(r.stdout == "\"\\255\\254\"\n{\"\\128abc\", \"a\\tb\\n\"}\n", "\(r.stdout)")
    }

    /// Keys print in one order on every run (numbers, then the rest by their printed text, as the
    /// dump lists them): booleans and tables were placed by address.
    @Test func keysPrintInTheSameOrderEveryRun() throws {
        for _ in 0..<4 {
            let r = try Ckrun.run(["repl"], stdin: "={b = 2, [true] = 1, [false] = 0, a = 3, [{}] = 6, c = 4, [2.5] = 7}\n")
            #expect(r.stdout == "{[2.5] = 7, [false] = 0, [true] = 1, [{}] = 6, a = 3, b = 2, c = 4}\n", "\(r.stdout)")
        }
    }

    /// Of a table's keys only the first 50 in order are kept while walking it (no sort of all of
    /// them): the first 50 of 200, in order, whatever order `pairs` gives.
    @Test func aBigTableShowsItsFirstKeysInOrder() throws {
        let r = try Ckrun.run(["repl"], stdin: "t = {} for i = 200, 1, -1 do t[string.format('k%03d', i)] = i end\n=t\n")
        let expected = (1...50).map { String(format: "  k%03d = %d,\n", $0, $0) }.joined() + "  … (150 more)\n}\n"
        #expect(r.stdout == "{\n" + expected, "\(r.stdout)")
    }

    /// `.5` is a number, as in lua -i, not an unknown dot command.
    @Test func aLineStartingWithADotAndADigitIsLua() throws {
        let r = try Ckrun.run(["repl"], stdin: ".5\n.5 + 1\n.5e1 * 2\n")
        #expect(r.stdout == "0.5\n1.5\n10.0\n", "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }
}
