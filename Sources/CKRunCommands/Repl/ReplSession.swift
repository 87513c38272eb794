import CEditLine
import CKCore
import CKLua
import Foundation

/// The read-eval-print loop, as `lua -i` has it. On a terminal it edits lines with libedit,
/// keeps history and completes names; otherwise it reads lines from standard input. The app
/// runner uses it too, with the run loop run until idle after each input.
final class ReplSession {
    let engine: Engine
    let appFile: String?
    /// After each input: build async updates (the REPL) or run the loop until idle (an app).
    let runsLoopUntilIdle: Bool
    /// `--watch`: reload the app when its files change.
    let watch: Bool
    private let app: AppSession
    private let terminal = isatty(0) == 1
    /// The table `repl.lua` returns: compile, format, dot, complete.
    private var repl: Value = .nil

    init(engine: Engine, appFile: String?, runsLoopUntilIdle: Bool, watch: Bool = false) {
        self.engine = engine
        self.appFile = appFile
        self.runsLoopUntilIdle = runsLoopUntilIdle
        self.watch = watch
        app = AppSession(engine: engine, file: appFile)
    }

    /// Runs until EOF or `.quit`.
    func run() {
        installPrelude()
        ReplSignals.install()
        let input: LineInput = terminal && TerminalInput.isAvailable ? TerminalInput(engine: engine) : PipeInput()
        if terminal { print("ckrun \(CkrunCommand.version) (Lua 5.4) — .help for commands, Ctrl-D to leave") }
        greet()
        if watch { startWatching(input) }
        // Lines are bytes (issue 24, class 8): Lua compiles what was typed or piped, undecoded.
        var pending: [UInt8] = []
        while let line = input.read(prompt: pending.isEmpty ? "> " : ">> ") {
            if pending.isEmpty && line.drop(while: { $0 == 32 || $0 == 9 }).first == UInt8(ascii: ".") {
                input.remember(String(decoding: line, as: UTF8.self))
                if runDot(line) == .quit { break }
                afterInput()
                continue
            }
            pending = pending.isEmpty ? line : pending + [10] + line
            switch evaluate(pending) {
            case .incomplete:
                continue
            case .done, .failed:
                input.remember(String(decoding: pending, as: UTF8.self))
                pending = []
                afterInput()
            }
        }
        input.close()
    }

    // MARK: Evaluation

    enum Outcome { case done, incomplete, failed }

    /// Started on an app: which one is mounted and where to begin (stderr when piped, so
    /// that standard output stays the session's).
    private func greet() {
        guard let banner = app.banner else { return }
        if terminal { print(banner, terminator: "") } else { writeError(banner, newline: false) }
    }

    private func startWatching(_ input: LineInput) {
        guard let watcher = app.makeWatcher() else {
            writeError("ckrun: --watch needs the app's file and inotify; watching nothing")
            return
        }
        input.watch = Watch(watcher: watcher) { [unowned self] files in
            print("changed: \(files.joined(separator: ", "))")
            do throws(LuaError) { print(try app.reload()) } catch { report(error.keepingFirstTraceback()) }
            afterInput()
        }
    }

    private func installPrelude() {
        do {
            let chunk = try engine.load(EmbeddedLua.repl, name: "=(repl)")
            repl = try engine.call(chunk, [.string(appFile ?? ""), engine.replSession(app)]).first ?? .nil
            Completion.prelude = repl
        } catch {
            report(error)
        }
    }

    /// `repl[name]` (nil if the prelude failed: calling it is then a reported error).
    private func helper(_ name: String) -> Value { engine.field(name, of: repl) }

    private func evaluate(_ source: [UInt8]) -> Outcome {
        let compiled: [Value]
        do {
            compiled = try engine.call(helper("compile"), [engine.string(bytes: source)])
        } catch {
            report(error)
            return .failed
        }
        guard let chunk = compiled.first, case .function = chunk else {
            let message = compiled.count > 1 ? engine.text(compiled[1]) : nil
            if message == "incomplete" { return .incomplete }
            writeError(message ?? "syntax error")
            return .failed
        }
        let results: [Value]
        do {
            ReplSignals.beginEvaluating(engine)
            defer {
                ReplSignals.evaluating = nil
                engine.clearInterrupt()
            }
            engine.forgetInnerTraceback()
            results = try engine.withLimits { () throws(LuaError) in try engine.call(chunk) }
        } catch {
            report(engine.restoringInnerTraceback(error))
            return .failed
        }
        guard !results.isEmpty else { return .done }
        do {
            print(try engine.call(helper("format"), results).first.flatMap(engine.text) ?? "")
        } catch {
            report(error)
        }
        return .done
    }

    private enum DotOutcome { case done, quit }

    private func runDot(_ line: [UInt8]) -> DotOutcome {
        do {
            ReplSignals.beginEvaluating(engine)
            defer {
                ReplSignals.evaluating = nil
                engine.clearInterrupt()
            }
            engine.forgetInnerTraceback()
            let blank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }
            let command = engine.string(bytes: Array(line.drop(while: blank).reversed().drop(while: blank).reversed()))
            let result = try engine.withLimits { () throws(LuaError) in try engine.call(helper("dot"), [command]) }
            return result.first.flatMap(engine.text) == "quit" ? .quit : .done
        } catch {
            writeError(Self.dotError(engine.restoringInnerTraceback(error)))
            return .done
        }
    }

    /// A dot command's own complaint (starting with \u{1}) prints without the REPL's location;
    /// any error prints with the user's frames of its traceback, if it has any.
    static func dotError(_ e: LuaError) -> String {
        let message = e.message.hasPrefix("\u{1}") ? String(e.message.dropFirst())
            : e.message.replacingOccurrences(of: #"\(repl\):\d+: "#, with: "", options: .regularExpression)
        let frames = e.keepingFirstTraceback().traceback.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .filter { !$0.contains("(repl)") }
        let userFrames = frames.filter {
            let frame = $0.trimmingCharacters(in: .whitespaces)
            return !frame.isEmpty && !frame.hasPrefix("[C]") && !frame.hasPrefix("(...")
        }
        guard !userFrames.isEmpty else { return message }
        return message + "\nstack traceback:\n" + frames.joined(separator: "\n")
    }

    /// Builds pending updates; with an app that is not paused (`.pause`), runs the loop until idle.
    private func afterInput() {
        let paused: Bool = if case .bool(true) = engine.field("paused", of: repl) { true } else { false }
        do {
            // Ctrl-C stops the loop's renders, timers and updates as it stops a chunk.
            try ReplSignals.during(engine) { () throws(LuaError) in
                if (runsLoopUntilIdle || engine.appHost != nil) && !paused {
                    try engine.runUntilIdle()
                } else {
                    try engine.flushHosts()
                }
            }
        } catch {
            report(error)
        }
    }

    private func report(_ error: LuaError) {
        writeError(error.description)
    }

    private func writeError(_ text: String, newline: Bool = true) {
        fflush(stdout)
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }
}

/// Where Ctrl-C goes: the engine evaluating a chunk, if any.
enum ReplSignals {
    nonisolated(unsafe) static var evaluating: Engine?
    nonisolated(unsafe) private static var installed = false

    /// Ctrl-C now stops `engine`'s chunk. SIGINT is unblocked each time: a parent (tmux started
    /// from a test runner) or the line editor may have left it blocked.
    static func beginEvaluating(_ engine: Engine) {
        evaluating = engine
        guard installed else { return }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Runs `body` with Ctrl-C stopping `engine`'s Lua code (`[interrupted]`).
    static func during(_ engine: Engine, _ body: () throws(LuaError) -> Void) throws(LuaError) {
        install()
        beginEvaluating(engine)
        defer {
            evaluating = nil
            engine.clearInterrupt()
        }
        try body()
    }

    static func install() {
        guard !installed else { return }
        installed = true
        signal(SIGINT) { _ in
            // At the prompt there is nothing to stop; a running chunk raises [interrupted].
            ReplSignals.evaluating?.interrupt()
        }
    }
}
