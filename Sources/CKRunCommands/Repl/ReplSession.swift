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
    private let terminal = isatty(0) == 1
    /// The table `repl.lua` returns: compile, format, dot, complete.
    private var repl: Value = .nil

    init(engine: Engine, appFile: String?, runsLoopUntilIdle: Bool) {
        self.engine = engine
        self.appFile = appFile
        self.runsLoopUntilIdle = runsLoopUntilIdle
    }

    /// Runs until EOF or `.quit`.
    func run() {
        installPrelude()
        ReplSignals.install()
        let input: LineInput = terminal ? TerminalInput(engine: engine) : PipeInput()
        if terminal { print("ckrun \(CkrunCommand.version) (Lua 5.4) — .help for commands, Ctrl-D to leave") }
        var pending = ""
        while let line = input.read(prompt: pending.isEmpty ? "> " : ">> ") {
            if pending.isEmpty && line.trimmingCharacters(in: .whitespaces).hasPrefix(".") {
                input.remember(line)
                if runDot(line) == .quit { break }
                afterInput()
                continue
            }
            pending = pending.isEmpty ? line : pending + "\n" + line
            switch evaluate(pending) {
            case .incomplete:
                continue
            case .done, .failed:
                input.remember(pending)
                pending = ""
                afterInput()
            }
        }
        input.close()
    }

    // MARK: Evaluation

    enum Outcome { case done, incomplete, failed }

    private func installPrelude() {
        do {
            let chunk = try engine.load(EmbeddedLua.repl, name: "=(repl)")
            repl = try engine.call(chunk, [.string(appFile ?? "")]).first ?? .nil
            Completion.prelude = repl
        } catch {
            report(error)
        }
    }

    /// `repl[name]` (nil if the prelude failed: calling it is then a reported error).
    private func helper(_ name: String) -> Value { engine.field(name, of: repl) }

    private func evaluate(_ source: String) -> Outcome {
        let compiled: [Value]
        do {
            compiled = try engine.call(helper("compile"), [.string(source)])
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
            results = try engine.withLimits { () throws(LuaError) in try engine.call(chunk) }
        } catch {
            report(error)
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

    private func runDot(_ line: String) -> DotOutcome {
        do {
            ReplSignals.beginEvaluating(engine)
            defer {
                ReplSignals.evaluating = nil
                engine.clearInterrupt()
            }
            let command = Value.string(line.trimmingCharacters(in: .whitespaces))
            let result = try engine.withLimits { () throws(LuaError) in try engine.call(helper("dot"), [command]) }
            return result.first.flatMap(engine.text) == "quit" ? .quit : .done
        } catch {
            writeError(error.message)
            return .done
        }
    }

    private func afterInput() {
        do {
            if runsLoopUntilIdle {
                try engine.runUntilIdle()
            } else {
                try engine.runChunk("ck.flush()", name: "=(repl)")
            }
        } catch {
            report(error)
        }
    }

    private func report(_ error: LuaError) {
        writeError(error.description)
    }

    private func writeError(_ text: String) {
        fflush(stdout)
        FileHandle.standardError.write(Data((text + "\n").utf8))
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

    static func install() {
        guard !installed else { return }
        installed = true
        signal(SIGINT) { _ in
            // At the prompt there is nothing to stop; a running chunk raises [interrupted].
            ReplSignals.evaluating?.interrupt()
        }
    }
}
