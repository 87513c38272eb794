import CLuaShims

extension Engine {
    /// Runs `hook` just before the process ends where nothing else can run: the watchdog's
    /// second tick under `--timeout` (a C function or a finalizer held the thread), a second
    /// Ctrl-C during a turn. It runs in a signal handler: async-signal-safe work only (a
    /// full-screen view gives the terminal back there). nil: none.
    public static func beforeForcedExit(_ hook: (@convention(c) () -> Void)?) { ckexithook_set(hook) }

    /// While that hook runs, the signal ending the process: `SIGALRM` for the watchdog, `SIGINT`
    /// for a second Ctrl-C.
    public static var forcedExitSignal: Int32 { ckexithook_signal() }
}
