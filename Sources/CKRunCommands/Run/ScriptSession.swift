import ArgumentParser
import CKLua
import Foundation

/// One Lua state with the `ck` module, as the command line configured it.
final class ScriptSession {
    let engine: Engine

    init(options: RuntimeOptions) throws {
        engine = Engine(configuration: .init(
            sandbox: options.sandbox,
            timeoutSeconds: options.timeout,
            memoryLimitBytes: (options.memoryLimit ?? 0) * 1024 * 1024))
    }

    func runChunk(_ code: String, name: String) throws {
        try report { () throws(LuaError) in try engine.runChunk(code, name: name) }
    }

    /// Runs FILE (or `-`) with `arg` and `...` set the way `lua` sets them.
    func runScript(path: String, arguments: [String]) throws {
        let code: String
        let chunkName: String
        if path == "-" {
            code = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            chunkName = "=stdin"
        } else {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("ckrun: cannot open \(path)\n".utf8))
                throw ExitCode(1)
            }
            code = String(decoding: data, as: UTF8.self)
            chunkName = "@" + path
        }
        engine.setArguments(script: path, arguments: arguments, interpreter: CommandLine.arguments.first ?? "ckrun")
        if path != "-" { engine.installSiblingSearcher(directories: [Engine.directory(of: path)]) }
        var isApp = false
        try report { () throws(LuaError) in isApp = try engine.runApp(code, name: chunkName, arguments: arguments) }
        guard isApp else { return }
        try report { () throws(LuaError) in try ReplSignals.during(engine) { () throws(LuaError) in try engine.runUntilIdle() } }
        // `ckrun app.lua --watch`: the app reloads when its files change.
        ReplSession(engine: engine, appFile: path == "-" ? nil : path, runsLoopUntilIdle: true,
                    watch: arguments.contains("--watch")).run()
    }

    /// `ckrun repl [FILE]`: an error in FILE is reported and the REPL still starts.
    func runRepl(file: String?, watch: Bool = false) throws {
        var isApp = false
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("ckrun: cannot open \(file)\n".utf8))
                throw ExitCode(1)
            }
            engine.setArguments(script: file, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
            engine.installSiblingSearcher(directories: [Engine.directory(of: file)])
            do {
                isApp = try engine.runApp(String(decoding: data, as: UTF8.self), name: "@" + file)
                if isApp { try engine.runUntilIdle() }
            } catch {
                FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
            }
        }
        ReplSession(engine: engine, appFile: file, runsLoopUntilIdle: isApp, watch: watch).run()
    }

    func report(_ body: () throws(LuaError) -> Void) throws {
        do {
            try body()
        } catch {
            FileHandle.standardError.write(Data("ckrun: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
    }
}
