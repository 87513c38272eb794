import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun [options] [script [args]]` (and `ckrun run ...`): Lua as lua5.4 runs it. The command
/// line is read by `LuaArguments` before ArgumentParser sees it; this type gives `--help`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a Lua script or app as lua5.4 does (the default command).",
        discussion: "lua's options: -e stat, -l mod, -l g=mod, -i, -v, -E, -W, --, - (see ckrun --help)."
    )

    @OptionGroup var runtime: RuntimeOptions

    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("lua's options, the script (or - for standard input) and its arguments.", valueName: "args"))
    var script: [String] = []

    func run() throws {
        let argv = (0..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0] }
        throw ExitCode(CkrunCommand.runCommandLine(argv))
    }
}
