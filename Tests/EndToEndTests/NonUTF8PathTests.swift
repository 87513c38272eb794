import CKTestHelpers
import Foundation
import Testing

/// A file or directory whose name is not UTF-8 (`$'\xff_app.lua'`, `$'d\xe9/'`) is opened by
/// its exact bytes and shown escaped (`\xFF`) in what ckrun writes itself: `ckrun tree` and
/// `ckrun repl FILE` said it did not exist, an app's `.reload` could not read its own file, and
/// `require` missed the modules beside a script in such a directory (each path went through a
/// Swift `String` and back as other bytes).
@Suite("File names that are not UTF-8")
struct NonUTF8PathTests {
    /// Runs `script` in bash in a fresh directory holding `d\xE9/\xFF_app.lua` (an app whose
    /// module `helper` is beside it); `$CKRUN` is the binary, `$APP` the app's path.
    func bash(_ script: String, stdin: String? = nil) throws -> ProcessResult {
        let dir = try TemporaryDirectory()
        let setUp = #"""
            d=$'d\xe9'; mkdir "$d"; APP="$d/"$'\xff_app.lua'
            printf 'return "helper"\n' > "$d/helper.lua"
            printf 'local h = require("helper")\nreturn ck.component("App", {render = function() return ck.Text{text = h} end})\n' > "$APP"
            """#
        return try Ckrun.runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", setUp + "\n" + script], stdin: stdin,
                                    directory: dir.url, environment: ["CKRUN": Ckrun.executableURL.path], timeout: 30)
    }

    @Test func anAppRunsAndReloadsItsOwnFile() throws {
        let r = try bash(#""$CKRUN" "$APP""#, stdin: ".reload\nprint(arg[0] == 'd\\233/\\255_app.lua')\n")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stderr.contains("[cannotRead]"), "\(r.stderr)")
        #expect(r.stdout.contains("reloaded") && r.stdout.contains("true"), "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains(#"d\xE9/\xFF_app.lua"#), "\(r.stdout)")
    }

    @Test func treeReadsTheFileByItsBytes() throws {
        let r = try bash(#""$CKRUN" tree "$APP""#)
        #expect(r.status == 0 && r.stdout.contains("text=\"helper\""), "\(r.stdout)\(r.stderr)")
    }

    @Test func replRunsTheFileByItsBytes() throws {
        let r = try bash(#""$CKRUN" repl "$APP""#, stdin: "print(arg[0] == 'd\\233/\\255_app.lua', app ~= nil)\n")
        #expect(r.status == 0 && r.stdout.contains("true\ttrue"), "\(r.stdout)\(r.stderr)")
    }

    @Test func aMissingFileIsNamedEscaped() throws {
        for command in ["tree", "repl"] {
            let r = try bash(#""$CKRUN" \#(command) $'missing\xff.lua' </dev/null"#)
            #expect(r.status != 0 && r.stderr.contains(#"missing\xFF.lua"#), "\(command): \(r.stderr)")
        }
    }

    /// `--coverage` of a module named in bytes that are not UTF-8: its lines counted from its
    /// source, written under its own bytes in lcov.info, shown escaped (it was written as
    /// U+FFFD's bytes, and its source could not be read back to count its lines).
    @Test(arguments: [[], ["--jobs", "2"]])
    func coverageNamesAModuleByItsBytes(_ options: [String]) throws {
        let r = try bash(#"""
            cd "$d"; printf 'local M = {}\nfunction M.f(x)\n  if x then return 1 end\n  return 2\nend\nreturn M\n' > $'m\xe9.lua'
            printf 'it("c", function() assert.are.equal(1, require("m\\233").f(true)) end)\n' > c_spec.lua
            "$CKRUN" test --coverage \#(options.joined(separator: " ")) c_spec.lua && grep -c $'^SF:m\xe9.lua$' lcov.info
            """#)
        #expect(r.status == 0 && r.stdout.hasSuffix("\n1\n"), "\(r.stdout)\(r.stderr)")
        #expect((r.stdout + r.stderr).contains(#"m\xE9.lua 4    1      80.00%"#), "\(r.stdout)\(r.stderr)")
    }
}
