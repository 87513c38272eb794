import CKCore
import ArgumentParser
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One Lua state with the `ck` module, as ckrun's own options configured it (`ckrun repl`).
final class ScriptSession {
    let engine: Engine

    init(options: RuntimeOptions) throws {
        engine = Engine(configuration: .init(
            sandbox: options.sandbox,
            timeoutSeconds: options.timeout,
            memoryLimitMegabytes: options.memoryLimit))
    }

    /// `ckrun repl [FILE]`: FILE runs first, loaded as lua loads files (its bytes as they are);
    /// an app is hosted by the app rule. An error in FILE is reported and the REPL still starts;
    /// `.reload` (and `--watch`, on a change) runs FILE again then, until it starts its app.
    func runRepl(file: String?, options: InteractiveRun.Options) throws {
        var options = options
        options.captureStartup()
        options.ownStandardInput { StandardInput.own(in: engine, lend: $0) }
        options.noteWarnings { engine.warningWritten = $0 }
        if let file {
            if let problem = ReadableFile.problem(file) {
                options.releaseStartup()
                ProcessOutput.err(ProgramName.prefixed("\(problem)") + "\n")
                throw ExitCode(1)
            }
            prepare(file: file)
            do {
                _ = try engine.turn { turn throws(LuaError) in try turn.runAppFile(file) }
            } catch {
                ProcessOutput.err(ProgramName.prefixed("\(error.description)") + "\n")
                // Failed before it started an app (a syntax error, an error in its chunk): a
                // reload runs it as here (`--watch`: when it is fixed), not the app it has not.
                options.appToStart = engine.appHost == nil
                options.startError = error.description
            }
        }
        InteractiveRun(engine: engine, appFile: file, options: options).run()
    }

    /// `arg` as lua sets it for `file`, and `require` beside it.
    func prepare(file: String) {
        engine.setArguments(script: file, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
        engine.searcher.install(directories: [(SiblingSearcher.directory(of: file), "beside the script \(file)")])
    }

    /// Runs `body`; a Lua error is printed after "ckrun: " and ends the command with status 1.
    func report(_ body: () throws(LuaError) -> Void) throws {
        do {
            try body()
        } catch {
            ProcessOutput.err(ProgramName.prefixed("\(error.description)") + "\n")
            throw ExitCode(1)
        }
    }
}
