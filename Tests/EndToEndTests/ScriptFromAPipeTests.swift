import CKTestHelpers
import Foundation
import Testing

/// atk-safety4 03: lua5.4 runs a script given as a pipe (`lua5.4 <(echo …)`, `… | lua5.4
/// /dev/stdin`, a FIFO, LUA_INIT=@/dev/stdin); ckrun refused it with [cannotRead]. It reads such a
/// file once, as it comes, and `--timeout` bounds the wait for its writer; `--watch`, which reads
/// the script again, refuses it saying why.
@Suite("A script read from a pipe")
struct ScriptFromAPipeTests {
    static func shell(_ script: String, timeout: TimeInterval = 30) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script],
                             environment: ["CK": Ckrun.executableURL.path], timeout: timeout)
    }

    @Test func processSubstitutionAndDevStdinRunAsUnderLua() throws {
        let sub = try Self.shell(#"$CK <(printf '#!/usr/bin/env lua\nprint("procsub", ...)\nerror("line 3")') a b"#)
        #expect(sub.stdout == "procsub\ta\tb\n", "\(sub.stdout)\(sub.stderr)")
        // The `#` line is skipped and its line counted, as luaL_loadfilex does.
        #expect(sub.stderr.contains(":3: line 3"), "\(sub.stderr)")
        #expect(sub.status == 1)
        let stdin = try Self.shell(#"echo 'print("stdin ok")' | $CK /dev/stdin"#)
        #expect(stdin.stdout == "stdin ok\n" && stdin.status == 0, "\(stdin.stdout)\(stdin.stderr)")
        let initFile = try Self.shell(#"echo 'print("init ok")' | LUA_INIT=@/dev/stdin $CK -e 'print("e")'"#)
        #expect(initFile.stdout == "init ok\ne\n" && initFile.status == 0, "\(initFile.stdout)\(initFile.stderr)")
        let dash = try Self.shell(#"printf '\xef\xbb\xbfprint("bom")' | $CK -"#)
        #expect(dash.stdout == "bom\n" && dash.status == 0, "\(dash.stdout)\(dash.stderr)")
    }

    /// A writer that has not finished: `--timeout` ends the read (it waited for good, `-` too).
    @Test(arguments: ["/dev/stdin", "-"])
    func timeoutBoundsTheRead(_ script: String) throws {
        let started = Date()
        // The writer (not waited for by the shell) keeps the pipe open without printing.
        let r = try Self.shell("$CK --timeout 1 \(script) < <({ echo 'print(1)'; sleep 20; } 2>/dev/null); echo status=$?", timeout: 40)
        #expect(r.stderr.contains("was still being read when the time limit (--timeout) ran out"), "\(r.stderr)")
        #expect(r.stdout.contains("status=1"), "\(r.stdout)")
        #expect(Date().timeIntervalSince(started) < 25)
    }

    @Test func watchRefusesAPipeSayingWhy() throws {
        let r = try Self.shell(#"$CK <(echo 'print(1)') --watch"#)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("[cannotWatch] --watch cannot watch /dev/fd/"), "\(r.stderr)")
        #expect(r.stderr.contains("a pipe or device gives its bytes once"), "\(r.stderr)")
    }
}
