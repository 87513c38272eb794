import CKCore
import CKLua
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Options of an interactive run (`ckrun repl`; `ckrun FILE` reads the same words, see
/// `InteractiveRun.Options.scan`).
struct RunOptions: ParsableArguments {
    @Flag(help: "Reload the app (as .reload does) when a .lua file in its directory changes.")
    var watch = false

    @Option(help: ArgumentHelp("The timers' clock: wall (real time; the default on a terminal) or virtual (moved by each input; the default on a pipe).", valueName: "wall|virtual"))
    var clock: AppClock.Mode?

    @Flag(help: "Start with the clock stopped (.resume starts it, .advance moves it).")
    var paused = false

    @Flag(help: "Draw the app full-screen and drive it with keys (docs/tui.md).")
    var tui = false

    var interactive: InteractiveRun.Options { .init(watch: watch, clock: clock, paused: paused, tui: tui) }
}

extension AppClock.Mode: ExpressibleByArgument {}

extension InteractiveRun.Options {
    /// `ckrun FILE ... --watch --clock wall --paused --tui`: ckrun's run options may follow the script
    /// (the script sees them in `arg` too, and may mean them for itself: a `--clock` value that
    /// is neither is left alone, with `problem` saying so if an interactive run starts).
    static func scan(_ words: [String]) -> Self {
        var options = Self()
        var i = 0
        while i < words.count {
            let word = words[i]
            if word == "--watch" { options.watch = true }
            if word == "--paused" { options.paused = true }
            if word == "--tui" { options.tui = true }
            if let value = Self.value(of: "--clock", in: words, at: i) {
                if let mode = AppClock.Mode(rawValue: value) { options.clock = mode } else {
                    options.problem = Catalogue.usage.message("--clock takes wall or virtual, not '\(value)'; the default clock runs (the script sees the word in `arg` too)")
                }
            }
            i += 1
        }
        return options
    }

    /// The words after the script (`ckrun app.lua --timeout 1`): a `--timeout` there limits each
    /// turn once the app runs (the script itself ran without it); `--memory-limit` and
    /// `--sandbox` hold from the state's start, so there they came too late: said, not applied.
    mutating func scanAfterScript(_ words: [String]) {
        for i in words.indices {
            if let value = Self.value(of: "--timeout", in: words, at: i), let seconds = Double(value), seconds > 0, seconds.isFinite {
                timeout = seconds
            }
            for late in ["--sandbox", "--memory-limit"] where words[i] == late || Self.value(of: late, in: words, at: i) != nil {
                problem = Catalogue.usage.message("\(late) after the script is the script's argument, not ckrun's: it did not apply; put it before the script (ckrun \(late) … app.lua)")
            }
        }
    }

    /// The value of option `name` when `words[i]` is it: `--name VALUE` (the next word, "" at the
    /// end) or `--name=VALUE`; nil for another word.
    private static func value(of name: String, in words: [String], at i: Int) -> String? {
        if words[i] == name { return i + 1 < words.count ? words[i + 1] : "" }
        return words[i].hasPrefix(name + "=") ? String(words[i].dropFirst(name.count + 1)) : nil
    }

    /// With `--tui` and a terminal on standard input and output, what the script prints while it
    /// starts (before the view can show anything) is held for the view's output pane; the view,
    /// or `releaseStartup` when no view starts, writes it out. Call before the script runs.
    mutating func captureStartup() {
        guard tui, isatty(0) == 1, isatty(1) == 1, let log = OutputLog() else { return }
        TerminalRestore.install(log)
        startupOutput = log
    }

    /// How the script will read standard input, given to `own` before the script runs: on a
    /// terminal through ckrun's own stream (`StandardInput`), so a turn's stop (`--timeout`,
    /// Ctrl-C) ends a read that waits, lent by the view when `--tui` holds the output; a pipe or
    /// file stays C's stdin, which the lines the run reads share (`PipeLines`).
    func ownStandardInput(_ own: (StandardInput.Lender?) -> Void) {
        if let held = startupOutput { own(StandardInputLending.starting(output: held)) } else if isatty(0) == 1 { own(nil) }
    }

    /// With the start-up's output held: each warning written from the start is noted in it, so
    /// the output pane folds the first build's warning with the same one from later builds.
    func noteWarnings(_ note: (@escaping (String) -> Void) -> Void) {
        if let held = startupOutput { note { held.noteWarning($0) } }
    }

    /// No view after all (the script is no app, or it failed): what it printed, on the terminal.
    func releaseStartup() {
        TerminalRestore.leave()
    }
}
