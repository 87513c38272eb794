import CKTestHelpers
import Foundation
import Testing

/// SIGTERM and SIGHUP (a terminal closed) end an interactive run even while its input loops
/// under pcall, which catches the interruption they raise (outside attack atk-new, break 20: the
/// process went on spinning a CPU with no terminal; a plain `while true do end` did end).
@Suite("SIGTERM and SIGHUP end an interactive run")
struct TerminationSignalTests {
    @Test(arguments: ["TERM", "HUP"])
    func aPcallLoopDoesNotOutliveTheSignal(signal: String) throws {
        let script = """
            { printf 'print("looping") repeat pcall(function() while true do end end) until false\\n'; sleep 8; } 2>/dev/null | "$0" repl > out 2>&1 &
            p=$!
            for i in $(seq 50); do grep -q looping out 2>/dev/null && break; sleep 0.1; done
            kill -\(signal) $p
            for i in $(seq 30); do kill -0 $p 2>/dev/null || { echo ended; exit 0; }; sleep 0.1; done
            kill -KILL $p; echo still running
            """
        let dir = try TemporaryDirectory()
        let result = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script, Ckrun.executableURL.path],
                                          directory: dir.url, timeout: 40)
        #expect(result.stdout.contains("ended"), "\(result.stdout)\(result.stderr)")
    }
}
