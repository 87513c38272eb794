import CKLua

/// What an interactive run reads from and shows to the user: lines from a terminal through
/// libedit (`TerminalLines`) or a pipe (`PipeLines`), or the full-screen live view (`LiveView`,
/// `--tui`), which reads keys from `descriptor` and hands the run lines (its command line) and
/// turns (a tap), keeps what turns print in a pane of its own, and redraws after each build.
protocol FrontEnd: AnyObject {
    /// What the event loop waits on for input.
    var descriptor: Int32 { get }
    /// Whether a person reads the output (the greeting goes to stdout, not stderr).
    var isTerminal: Bool { get }
    /// Whether the run greets with ckrun's version and how to leave (the live view's header
    /// says that itself).
    var greets: Bool { get }
    /// Shows `prompt` and starts reading a line.
    func start(prompt: String)
    /// The input is readable: reads what is there; returns the complete lines (or turns), and
    /// `.end` at the end of input (Ctrl-D).
    func readable() -> [InputEvent]
    /// Input read from the descriptor but not handed out yet (C's stdin buffer, keys typed
    /// ahead): the run asks for it before it waits again, one line at a time (a line may
    /// `io.read` the next one).
    var hasBufferedInput: Bool { get }
    /// Whether a line buffered behind an entered one is read at a prompt of its own (libedit
    /// edits one line at a time; a pipe's lines are read without one).
    var promptsBufferedLines: Bool { get }
    /// Keeps an entered line in the history.
    func remember(_ entry: [UInt8])
    /// Runs `body`, a turn nobody typed, so that its output shows without garbling the line
    /// being typed.
    func aside(_ body: () -> Void)
    /// A build changed what the app shows.
    func didBuild()
    /// Ctrl-C while waiting: drops the line being typed and starts again at `prompt`; returns
    /// true when it means "leave" instead (the live view with its command line closed).
    func interrupted(prompt: String) -> Bool
    /// An error the run reported (already printed): the live view's status line shows it.
    func reported(error: String)
    /// A reload ended, `--watch`'s or `.reload`'s (a failed one's error is reported next): a
    /// reload that succeeds fixes what a failed one reported.
    func reloaded(succeeded: Bool)
    /// The terminal's size changed.
    func resized()
    /// The process was stopped (Ctrl-Z) and continued (`fg`): the terminal's modes are the
    /// shell's until the front end sets its own again.
    func continued()
    /// Seconds until what it shows goes stale with nothing happening (the live view's clock
    /// reading), nil: never; the run calls `tick` then.
    var secondsToNextTick: Double? { get }
    func tick()
    /// The run is about to wait: what changed since the last wait is shown (once for a whole
    /// round of keys, turns and builds).
    func beforeWait()
    /// Leaves: history saved, terminal restored.
    func close()
}

/// A line is the bytes typed or piped (Lua gets them undecoded: issue 24, class 8); a turn is
/// work the front end asks for (a tap in the live view), run as an input is.
enum InputEvent {
    case line([UInt8])
    case turn((borrowing Turn) throws(LuaError) -> Void)
    case end
}

extension FrontEnd {
    var greets: Bool { isTerminal }
    func reported(error: String) {}
    func reloaded(succeeded: Bool) {}
    var secondsToNextTick: Double? { nil }
    func tick() {}
    func beforeWait() {}
    func continued() {}
    var promptsBufferedLines: Bool { false }
}
