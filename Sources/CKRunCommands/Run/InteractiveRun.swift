import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// An interactive run (`ckrun app.lua`, `ckrun repl [FILE]`, bare `ckrun` on a terminal): it
/// greets and reads input at once, and one event loop waits on the input, the next timer, file
/// changes (`--watch`) and signals together. Each input, timer and reload is a turn of its own
/// (`Engine.turn`): an error in one is printed and the run goes on, `--timeout` bounds each,
/// Ctrl-C stops the running one (at the prompt it drops the line), Ctrl-D quits. While an app
/// runs, its timers follow `clock`: on the wall clock they fire while the run waits (a terminal),
/// on the virtual one (a pipe) the run fires them after each input until idle, bounded.
final class InteractiveRun {
    /// How the run's clock and reloads are set on the command line.
    struct Options {
        var watch = false
        var clock: AppClock.Mode?
        var paused = false
        /// The full-screen live view (`--tui`) instead of lines.
        var tui = false
        /// With `--tui` on a terminal: what the script printed while it started, held for the
        /// view's output pane (`captureStartup`).
        var startupOutput: OutputLog?
        /// What was wrong with the options given after the script, said when the run starts.
        var problem: String?
        /// The app file failed before it started an app (`ckrun repl FILE`): a reload runs it as at
        /// start; the error, for the status line.
        var appToStart = false
        var startError: String?
        /// `--timeout` after the script (`ckrun app.lua --timeout 1`): each turn's limit once the
        /// app runs, unless one was given before the script.
        var timeout: Double?
    }

    let engine: Engine
    let app: AppSession
    let repl: ReplSession
    let clock: AppClock
    let frontEnd: FrontEnd
    private(set) var options: Options
    private let loop = EventLoop()
    private var watcher: FileWatcher?
    /// Wall-clock timer loops already warned about (once each, as the loop keeps stopping there).
    private var warnedLoops: Set<String> = []
    private var shownGeneration = 0
    private var endingSignal: Int32?

    init(engine: Engine, appFile: String?, options: Options) {
        self.engine = engine
        let terminal = isatty(0) == 1
        app = AppSession(engine: engine, file: appFile, toStart: options.appToStart)
        repl = ReplSession(engine: engine)
        clock = AppClock(mode: options.clock ?? (terminal ? .wall : .virtual), paused: options.paused)
        var options = options
        frontEnd = Self.frontEnd(engine: engine, repl: repl, clock: clock, appFile: appFile, options: &options)
        self.options = options
        repl.remember = { [unowned frontEnd] in frontEnd.remember($0) }
        repl.reported = { [unowned frontEnd] in frontEnd.reported(error: $0) }
        app.reloadEnded = { [unowned frontEnd] in frontEnd.reloaded(succeeded: $0) }
        if let error = engine.appStartupError ?? options.startError { frontEnd.reported(error: error) }
    }

    /// The live view with `--tui` on a terminal (ncursesw loaded), else libedit's lines on a
    /// terminal, else plain lines; `options.problem` says why `--tui` could not be had.
    private static func frontEnd(engine: Engine, repl: ReplSession, clock: AppClock, appFile: String?,
                                 options: inout Options) -> FrontEnd {
        let terminal = isatty(0) == 1
        ForegroundTerminal.noteIfInBackground(errorDescriptor: options.startupOutput?.terminalError)
        if options.tui {
            if let why = LiveView.unavailable(startupOutput: options.startupOutput) {
                options.problem = "--tui: " + why + "; reading lines instead"
            } else if let view = LiveView(engine: engine, clock: clock, appFile: appFile, startupOutput: options.startupOutput,
                                          replPrompt: { [unowned repl] in repl.prompt },
                                          dropPending: { [unowned repl] in repl.dropPending() }) {
                // Its command line completes as the REPL's does (Tab).
                Completion.engine = engine
                Completion.prelude = { [unowned repl] in repl.prelude }
                return view
            } else {
                options.problem = "--tui: the terminal could not be drawn on (TERM=\(Environment.value("TERM") ?? "")); reading lines instead"
            }
            // What the script printed while it started goes to the terminal, where lines are read.
            options.startupOutput?.close()
        }
        // libedit draws the line on stdout: with stdout redirected (`> log.txt`, `| tee`) it
        // would not edit, and its lines never arrive; plain lines are read then.
        return terminal && isatty(1) == 1 && TerminalLines.isAvailable
            ? TerminalLines(engine: engine, prelude: { [unowned repl] in repl.prelude })
            : PipeLines(prompting: terminal)
    }

    /// Runs until the end of input, `.quit`, or SIGTERM.
    func run() {
        if engine.turnTimeoutSeconds == nil, let timeout = options.timeout { engine.turnTimeoutSeconds = timeout }
        if clock.mode == .wall { engine.runtime.loop.wallClock = { [clock] in clock.wallNow } }
        defer { engine.runtime.loop.wallClock = nil }
        let session = app.luaSide(clock: clock, runUntilIdle: { [unowned self] in runUntilIdle() },
                                  advance: { [unowned self] in advance(by: $0) })
        repl.installPrelude(appFile: app.file, session: session)
        greet()
        if let problem = options.problem { repl.writeError(ProgramName.prefixed(problem)) }
        if options.watch { startWatching() }
        if watcher != nil, app.toStart {
            repl.writeError(ProgramName.prefixed("--watch: the app did not start; waiting for a change to its .lua files (the REPL reads lines meanwhile)"))
        }
        // Signals first: a Ctrl-C is served before the keys typed after it.
        loop.sources = [.init(descriptor: SignalPipe.descriptor) { [unowned self] in signalled() },
                        .init(descriptor: frontEnd.descriptor) { [unowned self] in inputReady() }]
            + (watcher.map { [.init(descriptor: $0.descriptor) { [unowned self] in filesChanged() }] } ?? [])
        SignalPipe.stopTurn = Engine.interruptRunningTurn
        shownGeneration = engine.appHost?.generation ?? 0
        // The app loop is idle once the app started: what its start queued (a didMount's async
        // update; timers on a running virtual clock) is built now, and shown once the front end
        // started (before: only after the first input, and the live view kept generation 1).
        if engine.appHost != nil { settle() }
        frontEnd.start(prompt: repl.shownPrompt)
        noteBuilds()
        loop.run(timeout: { [unowned self] in secondsToWake() }, expired: { [unowned self] in woke() },
                 idle: { [unowned self] in frontEnd.beforeWait() })
        frontEnd.close()
        SignalPipe.stopTurn = nil
        if let endingSignal { ProcessOutput.endBy(endingSignal) }  // the terminal is restored by now
    }

    /// Started on an app: which one is mounted and where to begin (stderr when piped, so
    /// that standard output stays the session's).
    private func greet() {
        if frontEnd.greets { ProcessOutput.out("ckrun \(CkrunCommand.version) (Lua 5.4) — .help for commands, Ctrl-D to leave\n") }
        guard let banner = app.banner else { return }
        if frontEnd.isTerminal { ProcessOutput.out(banner) } else { repl.writeError(banner, newline: false) }
    }

    private func startWatching() {
        watcher = app.makeWatcher()
        guard watcher == nil else { return }
        let why = app.file == nil ? Catalogue.cannotWatch.message("--watch needs the app's file (ckrun app.lua --watch)") : FileWatcher.refusal
        repl.writeError(ProgramName.prefixed((why ?? Catalogue.cannotWatch.message("--watch cannot watch the app's directory")) + "; the app runs, unwatched"))
    }

    // MARK: Sources

    /// Reads and runs what the input holds, a line at a time (a line may `io.read` the next).
    private func inputReady() {
        var entered = false
        repeat {
            guard serve(frontEnd.readable(), entered: &entered) else { return }
            if entered && frontEnd.promptsBufferedLines && frontEnd.hasBufferedInput && !loop.isDone {
                frontEnd.start(prompt: repl.shownPrompt)
                entered = false
            }
        } while frontEnd.hasBufferedInput && !loop.isDone
        if entered { frontEnd.start(prompt: repl.shownPrompt) }
    }

    /// Runs the lines; false at the end of input or `.quit`.
    private func serve(_ events: [InputEvent], entered: inout Bool) -> Bool {
        for event in events {
            if SignalPipe.terminating != 0 {
                signalled()
                return false
            }
            let line: [UInt8]
            switch event {
            case .end:
                loop.isDone = true
                return false
            case .turn(let body):
                entered = true
                runTurn(body)
                continue
            case .line(let typed): line = typed
            }
            entered = true
            if clock.mode == .wall { engine.runtime.loop.advance(to: clock.wallNow) }
            switch repl.submit(line) {
            case .quit:
                loop.isDone = true
                return false
            case .continued: continue
            case .done: afterInput()
            }
        }
        return true
    }

    /// A turn the front end asked for (a tap in the live view), then what follows an input.
    private func runTurn(_ body: (borrowing Turn) throws(LuaError) -> Void) {
        if clock.mode == .wall { engine.runtime.loop.advance(to: clock.wallNow) }
        do throws(LuaError) { try engine.turn(body) } catch { repl.report(error) }
        afterInput()
    }

    private func signalled() {
        for signal in SignalPipe.drain() {
            switch signal {
            case SIGINT:
                repl.dropPending()
                if frontEnd.interrupted(prompt: repl.shownPrompt) {
                    endingSignal = signal
                    loop.isDone = true
                }
            case SIGWINCH: frontEnd.resized()
            case SIGCONT: frontEnd.continued()
            default:
                endingSignal = signal
                loop.isDone = true
            }
        }
    }

    private func filesChanged() {
        guard let files = watcher?.changedFiles(), !files.isEmpty else { return }
        frontEnd.aside {
            ProcessOutput.out("changed: \(files.joined(separator: ", "))\n")
            do throws(LuaError) {
                ProcessOutput.out(try app.reloadFile() + "\n")
            } catch {
                repl.report(error.keepingFirstTraceback())
            }
            afterInput()
        }
    }

    // MARK: Turns after input, and timers

    /// Builds what the input queued (a turn), then, on a running virtual clock, runs until idle.
    private func afterInput() {
        settle()
        noteBuilds()
    }

    /// A turn's end: the pending async updates built, then, on a running virtual clock, the
    /// timers run until idle.
    private func settle() {
        engine.endTurn(report: repl.report)
        if engine.appHost != nil, clock.mode == .virtual, !clock.isPaused { runUntilIdle() }
        clock.caughtUp(with: engine.runtime.loop.now)
    }

    /// The virtual clock's run until idle: one turn per timer, stopped with `[timerLoop]` at a
    /// timer that keeps re-arming itself.
    private func runUntilIdle() {
        if let stopped = engine.app.fireTimers(until: nil, report: repl.report) { engine.app.warnTimerLoop(stopped, in: .virtualClock) }
    }

    /// `.advance SECONDS`: the clock moves as the run loop moves it, one turn a timer; a timer's
    /// error is `[timerFailed]` and the rest still fire. Returns how many fired.
    private func advance(by seconds: Double) -> Int {
        var fired = 0
        let until = engine.runtime.loop.time(after: seconds)
        // A timer's frames only: not the REPL's own below `session.advance`.
        let report = { [repl] (error: LuaError) in repl.report(error.cutTraceback(at: "in field 'advance'")) }
        if let stopped = engine.app.fireTimers(until: until, report: report, fired: { fired += 1 }) {
            engine.app.warnTimerLoop(stopped, in: .virtualClock)
        }
        clock.caughtUp(with: engine.runtime.loop.now)
        return fired
    }

    private func secondsToNextTimer() -> Double? {
        guard engine.appHost != nil else { return nil }
        return clock.wait(until: engine.runtime.loop.nextDue)
    }

    /// The next timer, or the front end's next tick if that comes first.
    private func secondsToWake() -> Double? {
        let timer = secondsToNextTimer()
        guard let tick = frontEnd.secondsToNextTick else { return timer }
        return min(timer ?? tick, tick)
    }

    /// A timer is due (its builds redraw), else the front end's tick.
    private func woke() {
        if let timer = secondsToNextTimer(), timer <= 0 { fireDueTimers() } else { frontEnd.tick() }
    }

    /// The wall clock reached the next timer: fire what is due, beside the line being typed.
    private func fireDueTimers() {
        let now = clock.wallNow
        frontEnd.aside {
            guard let stopped = engine.app.fireTimers(until: now, report: repl.report) else { return }
            if warnedLoops.insert(stopped.timer.site).inserted { engine.app.warnTimerLoop(stopped, in: .wallClock) }
        }
        noteBuilds()
    }

    /// Tells the front end when a build changed what the app shows.
    private func noteBuilds() {
        let generation = engine.appHost?.generation ?? 0
        guard generation != shownGeneration else { return }
        shownGeneration = generation
        frontEnd.didBuild()
    }
}
