extension Runtime {
    /// A runtime's limits, sandbox and clock.
    public struct Configuration: Sendable {
        /// Seconds each call from Swift into Lua may run before ``ErrorID/timeout`` stops it
        /// (nil: no limit).
        public var timeout: Double?
        /// Megabytes the Lua state may hold before ``ErrorID/memoryLimit`` stops the script
        /// (nil: no limit).
        public var memoryLimitMegabytes: Int?
        /// Whether scripts are sandboxed as under `ckrun --sandbox`: no `os.execute`,
        /// `io.popen`, `package.loadlib` or file writes (docs/sandbox.md).
        public var sandbox: Bool
        /// The clock `ck.after` timers follow.
        public var clock: Clock

        /// A configuration; by default no limits, no sandbox, the virtual clock.
        public init(timeout: Double? = nil, memoryLimitMegabytes: Int? = nil, sandbox: Bool = false, clock: Clock = .virtual) {
            self.timeout = timeout
            self.memoryLimitMegabytes = memoryLimitMegabytes
            self.sandbox = sandbox
            self.clock = clock
        }
    }

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
