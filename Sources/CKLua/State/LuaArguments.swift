import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// ckrun's command line read the way lua.c reads `lua [options] [script [args]]`, with ckrun's
/// own long options (`--sandbox`, `--timeout`, `--memory-limit`, `--watch`, `--clock`,
/// `--paused`, `--tui`, `--help`, `--version`)
/// accepted among lua's. Arguments stay C strings: their bytes reach `arg` unchanged.
public struct LuaArguments {
    /// An option that runs something, in command-line order: `-e CODE`, `-l MOD`, `-W`.
    public enum Action {
        case execute(UnsafeMutablePointer<CChar>)
        case library(UnsafeMutablePointer<CChar>)
        case warningsOn
    }

    /// What the command line asks for.
    public enum Outcome {
        case run(LuaArguments)
        /// The first argument after ckrun's options names a subcommand (`repl`, `test`, ...).
        case subcommand(index: Int)
        /// `--help` / `--version`: ArgumentParser prints them.
        case parserHandles
        /// A bad lua.c option: lua.c's message (argument at `index`), exit status `status`.
        case badOption(index: Int, status: Int32)
        /// A bad value for ckrun's own option: the message, exit status 64.
        case badValue(String)
    }

    static let subcommands: Set<String> = ["repl", "test", "tree", "bench", "catalogue", "help"]

    public let argv: [UnsafeMutablePointer<CChar>]
    /// Index of the script in `argv` (`argv.count` when there is none).
    var script = 0
    public var scriptIndex: Int { script }
    var actions: [Action] = []
    var interactive = false, version = false, execute = false, ignoreEnvironment = false
    var sandbox = false
    var timeout: Double?
    var memoryLimit: Int?

    /// A REPL (or an app's session) can follow: a script (it may be an app), `-i`, or nothing
    /// to run (lua.c's REPL on a terminal). Not after `-e`/`-v` alone, which end the run.
    var replMayFollow: Bool { script < argv.count || interactive || (!execute && !version) }

    init(argv: [UnsafeMutablePointer<CChar>]) {
        self.argv = argv
        script = argv.count
    }

    public static func parse(_ argv: [UnsafeMutablePointer<CChar>]) -> Outcome {
        var a = LuaArguments(argv: argv)
        var i = 1, onlyCkrunOptions = true
        while i < argv.count {
            let s = Array(String(cString: argv[i]).utf8)
            if s.first != UInt8(ascii: "-") {
                a.script = i
                if onlyCkrunOptions, subcommands.contains(String(cString: argv[i])) { return .subcommand(index: i) }
                if onlyCkrunOptions, String(cString: argv[i]) == "run" {
                    // `ckrun run FILE ...` is `ckrun FILE ...`.
                    onlyCkrunOptions = false
                    i += 1
                    a.script = argv.count
                    continue
                }
                return .run(a)
            }
            if s.count > 2, s[1] == UInt8(ascii: "-") {
                switch a.takeLongOption(at: &i) {
                case .taken: i += 1; continue
                case .parserHandles: return .parserHandles
                case .bad(let message): return .badValue(message)
                // `--word` is one of ckrun's own options (lua.c has none): a usage error of ckrun's;
                // anything else (`---`, `--1`) is lua.c's unrecognized option.
                case .unknown where Self.isLetter(s[2]):
                    return .badValue("unknown option '\(Excerpt.text(String(cString: argv[i])))' (lua.c's options are single letters)")
                case .unknown: return .badOption(index: i, status: 1)
                }
            }
            onlyCkrunOptions = false
            switch a.takeLuaOption(s, at: &i) {
            case .next: i += 1
            case .stop(let script): a.script = script; return .run(a)
            case .bad: return .badOption(index: i, status: 1)
            }
        }
        a.script = argv.count
        return .run(a)
    }

    private enum LuaOption { case next, stop(Int), bad }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    /// One of lua.c's options at `argv[i]` (bytes `s`); `-e`/`-l` may take the next argument.
    private mutating func takeLuaOption(_ s: [UInt8], at i: inout Int) -> LuaOption {
        let letter = s.count > 1 ? s[1] : 0
        let alone = s.count == 2
        switch letter {
        case 0: return .stop(i)                                   // "-": standard input
        case UInt8(ascii: "-"): return alone ? .stop(i + 1) : .bad // "--"
        case UInt8(ascii: "E"): ignoreEnvironment = true; return alone ? .next : .bad
        case UInt8(ascii: "W"): actions.append(.warningsOn); return alone ? .next : .bad
        case UInt8(ascii: "i"): interactive = true; version = true; return alone ? .next : .bad
        case UInt8(ascii: "v"): version = true; return alone ? .next : .bad
        case UInt8(ascii: "e"), UInt8(ascii: "l"):
            var value = argv[i] + 2
            if alone {
                guard i + 1 < argv.count, argv[i + 1].pointee != CChar(UInt8(ascii: "-")) else { return .bad }
                value = argv[i + 1]
            }
            if letter == UInt8(ascii: "e") {
                execute = true
                actions.append(.execute(value))
            } else {
                actions.append(.library(value))
            }
            if alone { i += 1 }
            return .next
        default: return .bad
        }
    }

    private enum LongOption { case taken, parserHandles, bad(String), unknown }

    /// ckrun's own options: `--name VALUE` or `--name=VALUE`.
    private mutating func takeLongOption(at i: inout Int) -> LongOption {
        let text = String(cString: argv[i])
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts[0]
        switch name {
        case "--help", "--version": return .parserHandles
        case "--sandbox": sandbox = true; return parts.count == 1 ? .taken : .bad("--sandbox takes no value")
        // An interactive run's options (the command line reads them wherever they are).
        case "--watch", "--paused", "--tui": return parts.count == 1 ? .taken : .bad("\(name) takes no value")
        case "--clock":
            let value = parts.count > 1 ? parts[1] : (i + 1 < argv.count ? String(cString: argv[i + 1]) : "")
            if parts.count == 1 { i += 1 }
            return value == "wall" || value == "virtual" ? .taken : .bad("--clock takes wall or virtual")
        case "--timeout", "--memory-limit":
            var value = parts.count > 1 ? parts[1] : nil
            if value == nil, i + 1 < argv.count {
                i += 1
                value = String(cString: argv[i])
            }
            guard let value else { return .bad("\(name) needs a value") }
            if name == "--timeout" {
                guard let t = Double(value), t > 0 else { return .bad("--timeout takes a number of seconds greater than 0 (got '\(value)')") }
                timeout = t
            } else {
                guard let m = Int(value), m > 0 else { return .bad("--memory-limit takes a whole number of megabytes, 1 or more (got '\(value)')") }
                memoryLimit = m
            }
            return .taken
        default: return .unknown
        }
    }
}
