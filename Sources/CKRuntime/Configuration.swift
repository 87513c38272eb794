extension Runtime {
    /// A runtime's limits, sandbox and clock.
    public struct Configuration: Sendable {
        /// Seconds each call from Swift into Lua may run before ``ErrorID/timeout`` stops it
        /// (nil: no limit; anything but a number above 0 is ``ErrorID/badArgument``).
        public var timeout: Double?
        /// Megabytes the Lua state may hold before ``ErrorID/memoryLimit`` stops the script
        /// (nil: no limit; below 1 is ``ErrorID/badArgument``).
        public var memoryLimitMegabytes: Int?
        /// Whether scripts are sandboxed as under `ckrun --sandbox`: no `os.execute`,
        /// `io.popen`, `package.loadlib` or file writes (docs/sandbox.md).
        public var sandbox: Bool
        /// The clock `ck.after` timers follow.
        public var clock: Clock
        /// Where the runtime's warnings go (`[scopeCollision]`, `[unknownProp]`, … in
        /// docs/errors.md): each as a ``ScriptWarning``, on the thread of the call that ran the
        /// script, while the call runs (the runtime is in use: call none of its methods from
        /// here). Nil, the default, writes each to standard error as `ckrun` does. A script that
        /// sets `ck.config.onWarning` receives them instead.
        public var onWarning: (@Sendable (ScriptWarning) -> Void)?

        /// A configuration; by default no limits, no sandbox, the virtual clock.
        public init(timeout: Double? = nil, memoryLimitMegabytes: Int? = nil, sandbox: Bool = false, clock: Clock = .virtual,
                    onWarning: (@Sendable (ScriptWarning) -> Void)? = nil) {
            self.onWarning = onWarning
            self.timeout = timeout
            self.memoryLimitMegabytes = memoryLimitMegabytes
            self.sandbox = sandbox
            self.clock = clock
        }

        /// `[badArgument]` for a limit that would silently mean none (a timeout of -1 or NaN, a
        /// memory limit of 0 or below) or that no call could meet (a timeout of 0), as
        /// `ckrun --timeout` and `--memory-limit` refuse them (attack lib 11, lib2 09).
        func validate() throws(ScriptError) {
            if let timeout, !(timeout > 0) {
                throw ScriptError(.badArgument, "Runtime.Configuration: timeout must be a number of seconds greater than 0, got \(timeout); use nil for no time limit")
            }
            if let megabytes = memoryLimitMegabytes, !(1...Runtime.largestMemoryLimitMegabytes).contains(megabytes) {
                throw ScriptError(.badArgument, "Runtime.Configuration: memoryLimitMegabytes must be a whole number of megabytes from 1 to \(Runtime.largestMemoryLimitMegabytes), got \(megabytes); use nil for no memory limit")
            }
        }
    }

    /// How many megabytes a memory limit may be: more would overflow a count of bytes.
    static let largestMemoryLimitMegabytes = Int.max >> 21

    /// What time `ck.after` timers follow.
    public enum Clock: Sendable {
        /// Time moves only when the program says so (``Runtime/advance(by:)``): deterministic,
        /// as in tests.
        case virtual
        /// Time is the seconds since the runtime was made; ``Runtime/runDueTimers()`` fires
        /// what is due, ``Runtime/secondsUntilNextTimer`` says when to call it next.
        case wall
    }
}
