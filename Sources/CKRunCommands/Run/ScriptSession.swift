import ArgumentParser
import CKLua
import Foundation

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
    /// an app is hosted by the app rule. An error in FILE is reported and the REPL still starts.
    func runRepl(file: String?, watch: Bool = false) throws {
        var isApp = false
        if let file {
            guard FileManager.default.isReadableFile(atPath: file) else {
                FileHandle.standardError.write(Data("ckrun: cannot open \(file)\n".utf8))
                throw ExitCode(1)
            }
            engine.setArguments(script: file, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
            engine.installSiblingSearcher(directories: [Engine.directory(of: file)])
            do {
                isApp = try engine.runAppFile(file)
                if isApp { try engine.runUntilIdle() }
            } catch {
                FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
            }
        }
        ReplSession(engine: engine, appFile: file, runsLoopUntilIdle: isApp, watch: watch).run()
    }

    /// Runs `body`; a Lua error is printed after "ckrun: " and ends the command with status 1.
    func report(_ body: () throws(LuaError) -> Void) throws {
        do {
            try body()
        } catch {
            FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
    }
}
