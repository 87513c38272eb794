import ArgumentParser
import CKLua
import Foundation

/// `ckrun [options] [FILE | -] [ARGS...]` and `ckrun -e CODE`: Lua, like `lua`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a Lua script or app (the default command)."
    )

    @Option(name: .short, help: ArgumentHelp("Run CODE (may be repeated; runs before FILE).", valueName: "code"))
    var execute: [String] = []

    @Flag(name: .shortAndLong, help: "Print the version and exit.")
    var version = false

    @OptionGroup var runtime: RuntimeOptions

    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("The script (or - for standard input) and its arguments.", valueName: "file"))
    var script: [String] = []

    func run() throws {
        if version {
            print("ckrun \(CkrunCommand.version) (\(LuaVersion.string))")
            return
        }
        var script = script
        if script.first == "--" {
            script.removeFirst()
        } else if let first = script.first, first.hasPrefix("-"), first != "-" {
            throw ValidationError("unrecognized option '\(first)'")
        }
        let session = try ScriptSession(options: runtime)
        for code in execute {
            try session.runChunk(code, name: "=(command line)")
        }
        guard let file = script.first else {
            guard execute.isEmpty else { return }
            // Like lua: the REPL on a terminal, otherwise standard input is the script.
            if isatty(0) == 1 {
                try session.runRepl(file: nil)
            } else {
                try session.runScript(path: "-", arguments: [])
            }
            return
        }
        try session.runScript(path: file, arguments: Array(script.dropFirst()))
    }
}
