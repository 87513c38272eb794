import CKTestHelpers
import Foundation
import Testing

/// Plain Lua as lua5.4 runs it, on the differences an outsider found comparing the two side by
/// side (attack atk-luacli); each expectation is lua5.4 5.4.4's output.
@Suite("ckrun runs plain Lua as lua5.4, side by side")
struct LuaParityTests {
    private func sh(_ script: String) throws -> ProcessResult {
        try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path], directory: nil)
    }

    /// Each nested resume counts one C level, as lua5.4's: 197 coroutines fit (99 did).
    @Test func nestedCoroutinesReachLuasDepth() throws {
        let r = try Ckrun.run(["-e", """
            local n = 0
            local function f() n = n + 1; coroutine.wrap(f)() end
            local ok, e = pcall(f)
            local m = 0
            local function g() m = m + 1; assert(coroutine.resume(coroutine.create(g))) end
            pcall(g)
            print(n, m, (tostring(e):gsub("^.*: ", "")))
            """])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "197\t197\tC stack overflow\n")
    }

    /// Without --memory-limit, running out of memory is the machine's: Lua's own message.
    @Test func outOfMemoryWithoutALimitIsLuasMessage() throws {
        let r = try sh(#"ulimit -v 200000; exec "$0" -e 'local t = {} print(pcall(function() for i = 1, 1e9 do t[i] = i end end)) t = nil collectgarbage() local s = string.rep("x", 1e9)'"#)
        #expect(r.status == 1)
        #expect(r.stdout == "false\tnot enough memory\n")
        #expect(r.stderr.hasSuffix(": not enough memory\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("memoryLimit"))
    }

    /// atk-safety3 09: a script that fills the address space with small blocks it keeps left no
    /// room for ckrun's own error path ("Fatal error: failed to allocate", or a crash in
    /// Swift's report of it): the reserve Lua's failing allocation gives back makes it Lua's
    /// `not enough memory`, by every way a script comes in.
    @Test(arguments: [
        #"exec "$0" -e "$FILL""#,
        #"printf '%s\n' "$FILL" | exec "$0" -"#,
        #"printf '%s\n' "$FILL" > /tmp/ckrun-fill-$$.lua; "$0" /tmp/ckrun-fill-$$.lua; s=$?; rm -f /tmp/ckrun-fill-$$.lua; exit $s"#,
    ])
    func outOfMemoryKeepingEveryBlockIsLuasMessage(entry: String) throws {
        let r = try sh(#"FILL='local keep = false while true do keep = {keep, true} end'; ulimit -v 200000; "# + entry)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.hasSuffix(": not enough memory\n"), "\(r.stderr)")
    }

    /// The same in the REPL: the line fails with Lua's message, the session goes on.
    @Test func outOfMemoryKeepingEveryBlockLeavesTheReplGoingOn() throws {
        let r = try sh(#"ulimit -v 200000; printf 'local keep = false while true do keep = {keep, true} end\nprint("still here")\n' | exec "$0" repl"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("not enough memory"), "\(r.stderr)")
        #expect(r.stdout.contains("still here"), "\(r.stdout)\(r.stderr)")
        // An app's input line: the same, the app goes on.
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", #"local Root = ck.component("Root", {render = function() return ck.Text{text = "hi"} end}) return function() return Root{} end"#)
        let a = try sh(#"ulimit -v 250000; printf 'local keep = false while true do keep = {keep, true} end\nprint("still here")\n' | exec "$0" "# + app.path)
        #expect(a.status == 0, "\(a.stderr)")
        #expect(a.stderr.contains("not enough memory") && a.stdout.contains("still here"), "\(a.stdout)\(a.stderr)")
    }

    /// atk-safety3 08: with --timeout, a SIGALRM another process sent was reported as [timeout];
    /// only the watchdog's own timer counts, anything else ends the process as lua5.4's (142).
    @Test func aStraySIGALRMEndsTheProcessAsInLua() throws {
        let r = try sh(#""$0" --timeout 10 -e 'local t = os.clock() while os.clock() - t < 5 do end' & P=$!; sleep 0.5; kill -ALRM $P; wait $P; echo "status $?""#)
        #expect(r.stdout == "status 142\n", "\(r.stdout)\(r.stderr)")
        #expect(!r.stderr.contains("[timeout]"), "\(r.stderr)")
    }

    /// Started with SIGPIPE ignored, a reader that goes away ends nothing: the script runs to
    /// its end and the status is its own, as lua5.4's (ckrun killed itself by SIGPIPE, 141).
    @Test func anIgnoredSIGPIPEStaysIgnored() throws {
        let r = try sh(#"trap '' PIPE; ("$0" -e 'for i = 1, 100000 do print(i) end io.stderr:write("end\n")'; echo "rc=$?" >&2) | head -1"#)
        #expect(r.stdout == "1\n")
        #expect(r.stderr == "end\nrc=0\n", "\(r.stderr)")
    }

    /// lua.c's error message flushes nothing first: what io.write buffered comes after it, at
    /// exit (one stream for both: `2>&1`).
    @Test func anErrorComesBeforeBufferedOutput() throws {
        let r = try sh(#""$0" -e 'io.write("buffered\n") error("boom", 0)' 2>&1"#)
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("\(Ckrun.executableURL.path): boom\nstack traceback:"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("[C]: in ?\nbuffered\n"), "\(r.stdout)")
    }

    /// The message ends at a NUL, as lua.c's "%s" ends it (an error object's __tostring).
    @Test func anErrorMessageEndsAtANul() throws {
        let r = try Ckrun.run(["-e", #"error(setmetatable({}, {__tostring = function() return "visible\0hidden" end}))"#])
        #expect(r.status == 1)
        #expect(r.stderr == "\(Ckrun.executableURL.path): visible\n", "\(r.stderr)")
    }

    /// A single letter lua.c does not know is lua.c's error (status 1); a `--word` is ckrun's
    /// own usage error, said in ckrun's form (it printed lua.c's message with ckrun's status, 64).
    @Test func aBadOptionIsLuasOrCkrunsWhole() throws {
        let letter = try Ckrun.run(["-x"])
        #expect(letter.status == 1)
        #expect(letter.stderr.hasPrefix("\(Ckrun.executableURL.path): unrecognized option '-x'\nusage: "), "\(letter.stderr)")
        let word = try Ckrun.run(["--x"])
        #expect(word.status == 64)
        #expect(word.stderr == "\(Ckrun.executableURL.path): [usage] unknown option '--x' (lua.c's options are single letters); see 'ckrun --help'\n", "\(word.stderr)")
    }

    /// A chunk runs on a C level as lua.c's pmain, with its slots below: a __close handler run as
    /// the chunk fails still sees it ("[C]: in ?"), and a recursion overflows at lua5.4's depth
    /// (Debian's liblua5.4, LUAI_MAXSTACK 1,000,000: 999,986 calls).
    @Test func aChunkRunsAboveLuasMainLevel() throws {
        let close = try Ckrun.run(["-e", #"local x <close> = setmetatable({}, {__close = function() print(debug.traceback("tb")) end}) error("e")"#])
        #expect(close.stdout == "tb\nstack traceback:\n\t(command line):1: in function <(command line):1>\n\t[C]: in ?\n", "\(close.stdout)")
        let depth = try Ckrun.run(["-e", "local n = 0 local function f() n = n + 1; f() end print(pcall(f)) print(n)"])
        #expect(depth.stdout == "false\t(command line):1: stack overflow\n999986\n", "\(depth.stdout)")
    }

    /// On a pipe, `-i` echoes each line after its prompt and flushes it, as readline does: what
    /// the line writes to stderr comes after it (it came before the echo).
    @Test func aPipedLineIsEchoedBeforeItRuns() throws {
        let r = try sh(#"printf 'io.stderr:write("E\\n")\n' | "$0" -i 2>&1"#)
        #expect(r.stdout.contains("\n> io.stderr:write(\"E\\n\")\nE\nfile ("), "\(r.stdout)")
    }

    /// Ctrl-C while a write waits on a full pipe: the write goes on (SA_RESTART, as lua.c's
    /// signal()), the script catches "interrupted!" and ends normally, nothing is lost (the write
    /// failed with EINTR: [cannotWrite], status 1, the buffered lines dropped).
    @Test func ctrlCDuringAWriteLosesNothing() throws {
        // The script has its own SIGINT sent half a second in, while its writes wait on a pipe
        // whose reader sleeps a second.
        let script = #"local pid = io.open("/proc/self/stat"):read("n") os.execute("(sleep 0.5; kill -INT " .. pid .. ") &") local n = 0 local ok, e = pcall(function() while true do n = n + 1 io.write(string.format("%08d\n", n)) end end) io.stderr:write(tostring(e), "\n") io.write(n - 1, "\n")"#
        let r = try sh("(\"$0\" -e '\(script)'; echo \"rc=$?\" >&2) | (sleep 1; tail -1)")
        #expect(r.stderr.hasSuffix("interrupted!\nrc=0\n"), "\(r.stderr)")
        #expect(Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 1000, "\(r.stdout)")
    }

    /// A write failure stdio kept no errno of is said as it is known: a closed stdout is "Bad file
    /// descriptor", a full disk "a write the script made failed earlier" (both were "Input/output error").
    @Test func aLostWriteIsNotCalledAnIOError() throws {
        let flush = #"io.write("x") print(io.stdout:flush())"#
        let closed = try sh("\"$0\" -e '\(flush)' >&-")
        #expect(closed.stderr.contains("cannot write standard output: Bad file descriptor;"), "\(closed.stderr)")
        let full = try sh("\"$0\" -e '\(flush)' >/dev/full")
        #expect(full.stderr.contains("cannot write standard output: a write the script made failed earlier;"), "\(full.stderr)")
    }

    /// Ctrl-C in a loop whose time goes to ckrun's own walks of script values (host:dump runs a
    /// state's __tostring protected, and dropped the "interrupted!" it raised): the loop stops.
    @Test func ctrlCStopsALoopOverDump() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("dumps.lua", """
            local C = ck.component("C", {scope = true, initialState = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
              render = function() return ck.Text{text = "x"} end})
            local h = ck.host(function() return C{} end)
            while true do local s = h:dump() end
            """)
        let r = try sh("timeout -k 5 -s INT 1 \"$0\" '\(app.path)'; echo \"rc=$?\"")
        #expect(r.stdout == "rc=124\n", "137: killed after the grace period, Ctrl-C lost: \(r.stdout)")
        #expect(r.stderr.contains("interrupted!"), "\(r.stderr)")
    }
}
