import ArgumentParser
import CKCore
import CKLua
import CKRuntime
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun tree FILE --format text|json|dot|svg`: runs the app until idle and prints its tree.
struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Print an app's mounted tree (text, JSON, Graphviz dot, or SVG through dot)."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, dot, svg
    }

    @Argument(help: "The app script.")
    var file: String

    @Option(help: "text, json, dot, or svg (needs Graphviz's dot).")
    var format: Format = .text

    @OptionGroup var runtime: RuntimeOptions

    func run() throws {
        let dot = format == .svg ? try Self.graphvizDot() : nil
        if let problem = ReadableFile.problem(file) {
            ProcessOutput.err(ProgramName.prefixed("\(problem)") + "\n")
            throw ExitCode(1)
        }
        // The tree alone goes to stdout: what the app writes to descriptor 1 (print, io.write,
        // a program it runs) goes to stderr from here on.
        fflush(stdout)
        let treeOutput = dup(1)
        dup2(2, 1)
        let (text, timerFailed) = try treeText()
        fflush(stdout)
        let out = OutputDescriptor(fileDescriptor: treeOutput, closeOnDealloc: true, stream: .output)
        if let dot {
            try Self.svg(text, dot: dot, to: out)
        } else {
            out.write(Data(text.utf8))
        }
        if timerFailed { throw ExitCode(1) }
    }

    /// Runs the app (its chunk and first build: one turn), its timers until idle (a turn each,
    /// stopped with `[timerLoop]` at a timer that keeps re-arming), and formats its tree (a turn).
    private func treeText() throws -> (text: String, timerFailed: Bool) {
        let session = try ScriptSession(options: runtime)
        let engine = session.engine
        session.prepare(file: file)
        var isApp = false, why: String?
        try session.report { () throws(LuaError) in
            isApp = try engine.turn { turn throws(LuaError) in try turn.runAppFile(file) }
            why = try engine.turn { turn throws(LuaError) in turn.whyNotAnApp }
        }
        guard isApp, let host = engine.appHost else {
            throw ValidationError("\(BytePath.shown(file)) runs no app: " + (why ?? "return a provider or a component class, or call ck.run"))
        }
        // A failed timer is reported and the app goes on, as in an interactive run (its build was
        // rolled back); the tree is printed and the status is 1.
        var timerFailed = false, interrupted = false
        // What the app's start queued (a didMount's async update) is built first, as the app
        // loop builds it once idle.
        engine.endTurn { error in
            timerFailed = true
            ProcessOutput.err(ProgramName.prefixed("\(error.description)") + "\n")
        }
        if let stopped = engine.app.fireTimers(until: nil, report: { error in
            timerFailed = true
            interrupted = error.id == Catalogue.interrupted.rawValue
            ProcessOutput.err(ProgramName.prefixed("\(error.description)") + "\n")
        }) {
            engine.app.warnTimerLoop(stopped, in: .once)
        }
        if interrupted { throw ExitCode(1) }
        var text = ""
        try session.report { () throws(LuaError) in
            text = try engine.turn { turn throws(LuaError) in try formatted(host, turn) }
        }
        return (text, timerFailed)
    }

    private func formatted(_ host: CKCore.Host, _ turn: borrowing Turn) throws(LuaError) -> String {
        do {
            switch format {
            case .text: return try turn.dump(host)
            case .json: return try TreeExport(host: host).json(in: turn)
            case .dot, .svg: return try TreeExport(host: host).dot(in: turn)
            }
        } catch let e as LuaError {
            throw formatterBlamed(e)
        } catch {
            throw formatterBlamed(LuaError(message: "\(error)"))
        }
    }

    /// A time limit that struck in the formatter's own loops (no script line: a `__tostring`'s
    /// loop names its line) says so: the app had run; the formatting was what was slow.
    private func formatterBlamed(_ e: LuaError) -> LuaError {
        guard e.message.hasPrefix(Catalogue.timeout.message("the script ran past its time limit")) else { return e }
        var blamed = e
        blamed.message = Catalogue.timeout.message("formatting the tree as \(format.rawValue) ran past the time limit (the app had finished); raise --timeout")
        return blamed
    }

    /// The graph through Graphviz's `dot`: its warnings go to stderr as they are; its failure is
    /// `[graphvizFailed]` with its status and message (status 1), never a signal of ckrun's.
    private static func svg(_ graph: String, dot: String, to out: OutputDescriptor) throws {
        let outcome: GraphvizDot.Outcome
        do {
            outcome = try GraphvizDot.svg(graph, executable: dot, to: out)
        } catch {
            ProcessOutput.err(ProgramName.prefixed("" + Catalogue.graphvizFailed.message("could not run \(BytePath.shown(dot)): \(error)") + "") + "\n")
            throw ExitCode(1)
        }
        var said = Substring(outcome.messages)
        while said.last == "\n" { said = said.dropLast() }
        guard outcome.status != 0 else {
            if !said.isEmpty { ProcessOutput.err(String(said) + "\n") }
            return
        }
        let how = outcome.status > 128 ? "was killed by signal \(outcome.status - 128)" : "exited with status \(outcome.status)"
        let message = said.isEmpty ? "" : ": " + DumpText.oneLine(Excerpt.text(String(said)))
        ProcessOutput.err(ProgramName.prefixed("" + Catalogue.graphvizFailed.message("Graphviz's dot \(how) on the tree's graph\(message); the SVG is incomplete") + "") + "\n")
        throw ExitCode(1)
    }

    /// Graphviz's `dot` on PATH, looked for before the app runs: without it `--format svg` is a usage error.
    private static func graphvizDot() throws -> String {
        let candidates = (Environment.value("PATH") ?? "/usr/bin").split(separator: ":").map { "\($0)/dot" }
        guard let path = candidates.first(where: { BytePath.access($0, X_OK) }) else {
            throw ValidationError("--format svg needs Graphviz's dot (apt-get install graphviz); --format dot prints the source")
        }
        return path
    }
}
