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

/// `ckrun repl [FILE]`: run FILE (an app is hosted and mounted), then the REPL.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Evaluate Lua interactively, with the ck module and dot commands (.help)."
    )

    @Argument(help: "An app or script to run first.")
    var file: String?

    @OptionGroup var runOptions: RunOptions

    @OptionGroup var runtime: RuntimeOptions

    func run() throws {
        let session = try ScriptSession(options: runtime)
        try session.runRepl(file: file, options: runOptions.interactive)
    }
}
