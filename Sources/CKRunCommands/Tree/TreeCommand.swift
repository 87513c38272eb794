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
            ProcessOutput.err("ckrun: \(problem)\n")
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
            if try GraphvizDot.svg(text, executable: dot, to: out) != 0 { throw ExitCode(1) }
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
            ProcessOutput.err("ckrun: \(error.description)\n")
        }
        if let stopped = engine.app.fireTimers(until: nil, report: { error in
            timerFailed = true
            interrupted = error.id == Catalogue.interrupted.rawValue
            ProcessOutput.err("ckrun: \(error.description)\n")
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
            throw e
        } catch {
            throw LuaError(message: "\(error)")
        }
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
