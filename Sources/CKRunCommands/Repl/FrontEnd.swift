/// What an interactive run reads from and shows to the user. Lines today — a terminal through
/// libedit (`TerminalLines`) or a pipe (`PipeLines`); the full-screen view plugs in here too: it
/// reads keys from `descriptor` and hands the run lines, shows what turns nobody typed (timers,
/// reloads) printed without garbling the line being typed, and redraws after each build.
protocol FrontEnd: AnyObject {
    /// What the event loop waits on for input.
    var descriptor: Int32 { get }
    /// Whether a person reads the output (the greeting goes to stdout, not stderr).
    var isTerminal: Bool { get }
    /// Shows `prompt` and starts reading a line.
    func start(prompt: String)
    /// The input is readable: reads what is there; returns the complete lines, and `.end` at
    /// the end of input (Ctrl-D).
    func readable() -> [InputEvent]
    /// Input read from the descriptor but not handed out yet (C's stdin buffer): the run asks
    /// for it before it waits again, one line at a time (a line may `io.read` the next one).
    var hasBufferedInput: Bool { get }
    /// Keeps an entered line in the history.
    func remember(_ entry: String)
    /// Runs `body`, a turn nobody typed, so that its output shows without garbling the line
    /// being typed.
    func aside(_ body: () -> Void)
    /// A build changed what the app shows.
    func didBuild()
    /// Ctrl-C while waiting: drops the line being typed and starts again at `prompt`.
    func interrupted(prompt: String)
    /// The terminal's size changed.
    func resized()
    /// Leaves: history saved, terminal restored.
    func close()
}

/// A line is the bytes typed or piped (Lua gets them undecoded: issue 24, class 8).
enum InputEvent: Equatable {
    case line([UInt8])
    case end
}
