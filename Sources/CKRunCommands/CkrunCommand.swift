import ArgumentParser
import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `ckrun`: a Lua 5.4 interpreter whose `ck` module runs component trees.
public struct CkrunCommand: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "ckrun",
        abstract: "Run ComponentKit-style component trees written in Lua.",
        discussion: discussion(width: HelpLayout.width),
        version: "ckrun \(version) (Lua 5.4)",
        subcommands: [RunCommand.self, ReplCommand.self, TestCommand.self, TreeCommand.self, BenchCommand.self,
                      CatalogueCommand.self],
        defaultSubcommand: RunCommand.self
    )

    public init() {}

    /// lua's options, as lua.c's usage lists them.
    static let luaOptions = [
        ("-e stat", "run the chunk stat (-estat too)"), ("-l mod", "mod = require(\"mod\")"),
        ("-l g=mod", "g = require(\"mod\")"), ("-i", "the REPL after the script"),
        ("-v", "print Lua's version"), ("-E", "ignore LUA_INIT, LUA_PATH..."),
        ("-W", "turn warnings on"), ("--", "stop handling options"), ("-", "run standard input"),
    ]

    /// The help's text below the overview: paragraphs are single lines (ArgumentParser wraps
    /// them); the table of lua's options is laid out for `width`.
    static func discussion(width: Int) -> String {
        """
        ckrun [options] [script [args]] runs Lua as lua5.4 does, with lua's options:
        \(HelpLayout.table(luaOptions, width: width))
        and ckrun's own (--sandbox, --timeout SECONDS, --memory-limit MB) anywhere before the script. \
        A script that is an app (SPEC §9) is hosted, then reads REPL input. A script whose name is a \
        subcommand's (repl, test, tree, bench, catalogue, run, help) runs when named with a path: ckrun ./test.
        Exit status: 0 success, 1 a script error or failing tests, 64 a usage error of ckrun's own \
        options and subcommands (lua's options fail as lua's do, with 1).
        """
    }

    /// The command line as lua.c reads it, unless it names a subcommand or asks for help.
    public static func main() {
        ProcessOutput.noteInheritedSignals()
        ForcedExit.claimSignals()
        StartDirectory.note()
        catchFileSizeSignal()
        ProcessOutput.stdioOutput = stdout
        let argv = (0..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0] }
        let status = runCommandLine(argv)
        SpecPrelude.stopAhead()   // no thread runs Lua while the process ends
        Glibc.exit(ProcessOutput.finish(status: status, stdio: stdout))
    }

    /// Under `ulimit -f` a write past the limit raises SIGXFSZ, which ended ckrun mid-report
    /// (no summary, a temporary left behind): a handler that does nothing makes that write fail
    /// with EFBIG, reported as `[cannotWrite]`. A handler, not SIG_IGN: a program a script or a
    /// test starts gets the default action back when it execs.
    private static func catchFileSizeSignal() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        sigaction(SIGXFSZ, &action, nil)
    }

    /// The `lua5.4`-style session, kept to the process's end once it ran (see `runCommandLine`).
    nonisolated(unsafe) private static var finishedSession: LuaMain?

    static func runCommandLine(_ argv: [UnsafeMutablePointer<CChar>]) -> Int32 {
        switch LuaArguments.parse(argv) {
        case .run(let arguments): return run(arguments)
        case .subcommand(let index):
            // ckrun's options before the subcommand go after it, where ArgumentParser reads them.
            let words = argv.dropFirst().map { ByteText.text(cString: $0) }   // bytes kept (ByteText)
            let before = Array(words[..<(index - 1)])
            return parseAndRun([words[index - 1]] + before + words[index...])
        case .parserHandles:
            return parseAndRun(argv.dropFirst().map { ByteText.text(cString: $0) })
        case .badOption(let index, let status):
            LuaUsage.write(badOption: argv[index], progname: argv.first)
            return status
        case .badValue(let message):
            ProcessOutput.err(ProgramName.prefixed("\(Catalogue.usage.message(message)); see 'ckrun --help'") + "\n")
            return 64
        }
    }

    /// A script (or the REPL) as lua5.4 runs it, hosting it when it is an app.
    private static func run(_ arguments: LuaArguments) -> Int32 {
        // `ckrun app.lua --watch --clock wall --paused --tui`: the run's options, after the script too.
        var options = InteractiveRun.Options.scan(CommandLine.arguments)
        options.scanAfterScript(Array(CommandLine.arguments.dropFirst(arguments.scriptIndex + 1)))
        // `--watch` on a file that fails at start (a syntax error, an error in its first
        // build) waits for a change in its directory and starts again, as it reloads later.
        let script = arguments.scriptIndex
        let hasFile = script > 0 && script < CommandLine.arguments.count && CommandLine.arguments[script] != "-"
        if options.watch && hasFile, let refusal = WatchRefusal.stream(CommandLine.arguments[script]) {
            ProcessOutput.err(ProgramName.prefixed(refusal) + "\n")
            return 1
        }
        let fix = options.watch && hasFile ? StartWatch(script: CommandLine.arguments[script]) : nil
        while true {
            var started = false
            options.captureStartup()
            let session = LuaMain(arguments) { engine, appFile, isApp in
                started = true
                options.watch = options.watch && isApp
                options.tui = options.tui && isApp
                if !isApp { options.releaseStartup() }
                InteractiveRun(engine: engine, appFile: appFile, options: options).run()
            }
            // Its state closed (finalizers ran) in `run`; the process ends next, and its Swift
            // objects' memory with it, not through their releases (0.08M instructions a start).
            finishedSession = session
            options.ownStandardInput { session.ownStandardInput(lend: $0) }
            options.noteWarnings { session.noteWarnings($0) }
            let status = session.run()
            options.releaseStartup()
            guard !started, status != 0, let fix, fix.waitForAChange() else { return status }
        }
    }

    /// ArgumentParser's `main`, with a usage error in the catalogue's form on one line
    /// (`ckrun: [usage] …; see 'ckrun test --help'`): its own `Error:` carried no id.
    static func parseAndRun(_ arguments: [String]) -> Int32 {
        // A user's command line, not a `--jobs` worker's (whose values are the parent's, as they are).
        let bustedLine = arguments.first == TestCommand._commandName && !arguments.contains("--worker")
        let arguments = bustedLine ? BustedArguments.normalized(arguments) : arguments
        // Its preludes and luassert compile on another core while this one parses the line.
        if arguments.first == TestCommand._commandName { SpecPrelude.compileAhead() }
        do {
            var command = try parsedAsTest(arguments) ?? parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { return ended(by: error, code: code) }
            let lines = message(for: error).split(whereSeparator: \.isNewline).map { $0.trimmingBlanks() }
            let sub = arguments.first.flatMap { name in configuration.subcommands.contains { $0._commandName == name } ? " " + name : nil } ?? ""
            let text = Catalogue.usage.message(lines.filter { !$0.isEmpty }.joined(separator: "; "))
            ProcessOutput.err(ProgramName.prefixed("\(text); see 'ckrun\(sub) --help'") + "\n")
            return 64
        }
    }

    /// `ckrun test …` parsed by `TestCommand` alone: the whole tree's parse builds TestCommand's
    /// argument set four times and the default subcommand's once (~10M instructions, before
    /// `--jobs` forks its workers). Anything but a `TestCommand` (help, an error, a flag only the
    /// root knows: --version, --generate-completion-script) is nil, and the whole tree's parse
    /// then says what it always said.
    static func parsedAsTest(_ arguments: [String]) -> ParsableCommand? {
        guard arguments.first == TestCommand._commandName else { return nil }
        return (try? TestCommand.parseAsRoot(Array(arguments.dropFirst()))) as? TestCommand
    }

    /// ArgumentParser's `exit(withError:)` without exiting: help, version and `ExitCode(n)` reach
    /// `main`, whose `ProcessOutput.finish` reports an output that could not be written.
    static func ended(by error: Error, code: ExitCode) -> Int32 {
        let text = HelpLayout.fitted(fullMessage(for: error), width: HelpLayout.width)
        if !text.isEmpty { ProcessOutput.write(text + "\n", to: code == .success ? .output : .error) }
        return code.rawValue
    }
}
