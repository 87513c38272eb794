import ArgumentParser
import CKLua
import Foundation

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
        let session = try ScriptSession(options: runtime)
        guard let data = FileManager.default.contents(atPath: file) else {
            FileHandle.standardError.write(Data("ckrun: cannot open \(file)\n".utf8))
            throw ExitCode(1)
        }
        let engine = session.engine
        engine.setArguments(script: file, arguments: [], interpreter: CommandLine.arguments.first ?? "ckrun")
        engine.installSiblingSearcher(directories: [Engine.directory(of: file)])
        var isApp = false
        try session.report { () throws(LuaError) in
            // The tree goes to stdout; what the app prints goes to stderr.
            try engine.runChunk("""
                print = function(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end
                io.stderr:write(table.concat(t, "\\t", 1, t.n), "\\n") end
                """, name: "=(tree)")
            isApp = try engine.runApp(LuaSource(bytes: data), name: "@" + file)
            if isApp { try engine.runUntilIdle() }
        }
        guard isApp, let host = engine.appHost else {
            FileHandle.standardError.write(Data("ckrun: \(file) runs no app: return a provider or a component class, or call ck.run\n".utf8))
            throw ExitCode(1)
        }
        switch format {
        case .text: print(try host.dump(describe: engine.describeValue), terminator: "")
        case .json: print(try TreeExport(host: host, engine: engine).json(), terminator: "")
        case .dot: print(try TreeExport(host: host, engine: engine).dot(), terminator: "")
        case .svg: try printSVG(try TreeExport(host: host, engine: engine).dot())
        }
    }

    private func printSVG(_ dot: String) throws {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/dot" }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            FileHandle.standardError.write(Data("ckrun: --format svg needs Graphviz's dot (apt-get install graphviz); --format dot prints the source\n".utf8))
            throw ExitCode(1)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(dot.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(1) }
    }
}
