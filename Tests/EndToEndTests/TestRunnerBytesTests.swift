import CKTestHelpers
import Foundation
import Testing

/// `ckrun test` keeps bytes as bytes (the outsider's attack after issue 24): a test's name,
/// `--filter`, `-e`, `.busted`'s `e`, `-Xhelper` reach Lua as typed, a spec file whose name is not
/// UTF-8 is never skipped silently, and the text report escapes every field it writes.
@Suite("ckrun test: bytes kept, every field escaped")
struct TestRunnerBytesTests {
    /// `ckrun test` with arguments built by the shell (`printf` escapes: bytes Swift strings cannot hold).
    func shell(_ fixture: TestRunnerFixture, _ arguments: String) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec \"$CKRUN\" test " + arguments],
                             directory: fixture.directory.url, environment: ["CKRUN": Ckrun.executableURL.path])
    }

    static let latin1 = [
        "l_spec.lua": #"it("caf\233 one", function() end) it("caf\254 two", function() error("x") end) it("plain", function() end)"#,
    ]

    @Test func filtersMatchANamesBytes() throws {
        let fixture = try TestRunnerFixture(Self.latin1)
        let only = try shell(fixture, #"--filter "$(printf 'caf\351')" l_spec.lua"#)
        #expect(only.status == 0 && only.lastLine == "1 passed, 0 failed", "\(only.stdout)\(only.stderr)")
        let without = try shell(fixture, #"--filter-out "$(printf '\376')" l_spec.lua"#)
        #expect(without.status == 0 && without.lastLine == "2 passed, 0 failed", "\(without.stdout)\(without.stderr)")
    }

    @Test func twoNamesThatDifferInBytesThatAreNotUTF8AreShownApart() throws {
        let result = try TestRunnerFixture(Self.latin1).test("l_spec.lua")
        #expect(result.stdout.contains(#"caf\xE9 one"#) && result.stdout.contains(#"caf\xFE two"#), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{FFFD}"))
    }

    @Test func statementsAndHelperArgumentsAreTheBytesTyped() throws {
        let fixture = try TestRunnerFixture([
            "e_spec.lua": #"it("e", function() assert.are.equal(4, X) assert.are.equal(4, H) end)"#,
            "h.lua": "H = #arg[1]",
        ])
        let result = try shell(fixture, #"-e "$(printf 'X = #"caf\351"')" --helper h.lua -Xhelper "$(printf 'caf\351')" e_spec.lua"#)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let config = Array(#"return { default = { e = "X = #\"caf"#.utf8) + [0xE9] + Array(#"\"" } }"#.utf8)
        try Data(config).write(to: fixture.directory.url.appendingPathComponent(".busted"))
        let configured = try shell(fixture, #"--helper h.lua -Xhelper abcd e_spec.lua"#)
        #expect(configured.status == 0, "\(configured.stdout)\(configured.stderr)")
    }

    /// A spec file or directory whose name is not UTF-8 runs, found or named, serial or under
    /// `--jobs`, and is shown escaped (`caf\xE9_spec.lua`): the run refused it ("cannot be run
    /// yet"), and a named one was "no such file".
    @Test(arguments: [[], ["--jobs", "2"]])
    func aSpecFileOrDirectoryNamedInBytesThatAreNotUTF8Runs(_ options: [String]) throws {
        let fixture = try TestRunnerFixture(["ok_spec.lua": #"it("ok", function() end)"#])
        let jobs = options.joined(separator: " ")
        _ = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #"""
            printf 'it("fails", function() assert.is_true(false) end)\n' > "$(printf 'caf\351_spec.lua')"
            """#], directory: fixture.directory.url)
        let found = try shell(fixture, jobs + " .")
        #expect(found.status == 1 && found.lastLine == "1 passed, 1 failed", "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains(#"caf\xE9_spec.lua:1: fails"#), "\(found.stdout)")
        let named = try shell(fixture, jobs + #" "$(printf 'caf\351_spec.lua')""#)
        #expect(named.status == 1 && named.lastLine == "0 passed, 1 failed", "\(named.stdout)\(named.stderr)")
        _ = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #"rm caf*; d="$(printf 'd\351')"; mkdir "$d"; cp ok_spec.lua "$d/x_spec.lua""#],
                                 directory: fixture.directory.url)
        let directory = try shell(fixture, jobs + #" "$(printf 'd\351')""#)
        #expect(directory.status == 0 && directory.stdout.contains(#"d\xE9/x_spec.lua"#), "\(directory.stdout)\(directory.stderr)")
        let all = try shell(fixture, jobs + " .")
        #expect(all.status == 0 && all.lastLine == "2 passed, 0 failed", "\(all.stdout)\(all.stderr)")
    }

    @Test func theTextReportEscapesMessagesAndOutput() throws {
        let result = try TestRunnerFixture([
            "n_spec.lua": #"it("x", function() io.write("a\0b\27[1A\27[2K\255\r\n") error("e\27[8m") end)"#,
        ]).test("n_spec.lua")
        #expect(result.status == 1)
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains(#"e\u{1b}[8m"#) && result.stdout.contains(#"a\u{0}b\u{1b}[1A"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"\xFF"#), "\(result.stdout)")
    }
}
