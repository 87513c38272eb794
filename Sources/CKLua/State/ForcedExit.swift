import CLuaShims
#if canImport(Glibc)
import Glibc
#endif

/// How the process ends when nothing else can run, and which signals it claims at start: a
/// process concern beside the engine, not the Lua state's own.
public enum ForcedExit {
    /// Runs `hook` just before the process ends where nothing else can run: the watchdog's
    /// second tick under `--timeout` (a C function, a finalizer or a debug hook held the thread), a second
    /// Ctrl-C during a turn, Ctrl-\\ (SIGQUIT). It runs in a signal handler: async-signal-safe
    /// work only (a full-screen view gives the terminal back there). nil: none.
    public static func setHook(_ hook: (@convention(c) () -> Void)?) { ckexithook_set(hook) }

    /// At the process's start: a signal sent from outside ends the process by its default action
    /// (the Swift runtime's backtracer keeps only the process's own faults), and SIGQUIT
    /// (Ctrl-\\) runs the hook above first, so a full-screen view or the line editor gives the
    /// terminal back before the process ends by SIGQUIT, as a Unix tool does.
    public static func claimSignals() {
        ckexithook_claim_signals()
        ckcrash_install()
    }

    /// What a fault of the process (a segfault in a corrupted chunk Lua ran unverified) reports
    /// was running, after "ckrun: [crashed] signal N" and before the Swift runtime's backtrace:
    /// `" while …"` then `rest`, rendered now (the handler only writes it), the test a serial
    /// run started last between them. Empty: nothing is written.
    public static func noteRunning(_ text: String, _ rest: String = "") {
        let head = Array(text.utf8)
        var bytes = head + Array(rest.utf8)
        ckcrash_note(&bytes, bytes.count, head.count)
    }

    /// The test a serial run started last is no longer named (its file's tests are done; the
    /// state that holds its name may close): called before the state closes.
    public static func forgetTest() { ckcrash_note_test(nil) }

    /// While that hook runs, the signal ending the process: `SIGALRM` for the watchdog, `SIGINT`
    /// for a second Ctrl-C, `SIGQUIT` for Ctrl-\\.
    public static var signal: Int32 { ckexithook_signal() }

    /// What held the thread past `--timeout` when the last resort struck (the watchdog's one
    /// wording: a C function, a finalizer or a debug hook).
    public static var unstoppable: String { ckwatchdog_unstoppable().map { String(cString: $0) } ?? "" }

    /// Async-signal-safe (no allocation): writes `unstoppable` to `fd`, for a hook.
    public static func writeUnstoppable(to fd: Int32) {
        guard let text = ckwatchdog_unstoppable() else { return }
        _ = write(fd, text, strlen(text))
    }

    /// While the watchdog's last resort runs that hook: "file:line: " of the script line it
    /// struck (the caller of the C function that held the thread, or the finalizer's), "" when
    /// none is known.
    public static var lastResortPlace: String { String(cString: cklastresort_where()) }

    /// Async-signal-safe (no allocation): writes the program's name and ": " to `fd`, for a
    /// hook (`ProgramName.prefixed` allocates).
    public static func writeProgramPrefix(to fd: Int32) { cklastresort_write_program(fd) }

    /// Async-signal-safe (no allocation): writes `lastResortPlace` to `fd`, for a hook.
    public static func writeLastResortPlace(to fd: Int32) {
        guard let place = cklastresort_where() else { return }
        _ = Glibc.write(fd, place, strlen(place))
    }
}
