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

/// What a line of REPL input does, as `lua -i` has it: Lua is compiled as an expression first
/// (results printed) or a statement, incomplete input waits for more, and dot commands run. The
/// evaluation and the printing of its results are one turn (`__tostring`, `__pairs`, `__index`
/// and `__len` of the results run under the same limits as the chunk); a Lua prelude
/// (`repl.lua`) does what is easiest in Lua. `InteractiveRun` reads the lines.
final class ReplSession {
    enum Submission { case continued, done, quit }

    let engine: Engine
    /// The table `repl.lua` returns: compile, format, dot, complete.
    private(set) var prelude: Value = .nil
    /// Lines are bytes (issue 24, class 8): Lua compiles what was typed or piped, undecoded.
    private var pending: [UInt8] = []
    /// Keeps an entered input in the history (the terminal's), as the bytes typed.
    var remember: ([UInt8]) -> Void = { _ in }
    /// Told each error it printed (the live view's status line shows the last).
    var reported: (String) -> Void = { _ in }

    init(engine: Engine) { self.engine = engine }

    /// `> `, or `>> ` while input is incomplete.
    var prompt: String { pending.isEmpty ? "> " : ">> " }

    /// The prompt a line front end shows, as `lua -i` shows it: `_PROMPT` (`_PROMPT2` while
    /// input is incomplete) when a script set it, through `tostring` in a turn, else `prompt`.
    /// Read raw, so a strict `_G` is not asked; a conversion that fails is reported, and the
    /// default shown.
    var shownPrompt: String {
        let value = engine.tools.global(pending.isEmpty ? "_PROMPT" : "_PROMPT2")
        switch value {
        case .nil: return prompt
        case .string(let text): return text
        default: break
        }
        do throws(LuaError) {
            let text = try engine.turn { turn throws(LuaError) in try turn.call(helper("promptText"), [value]) }
            return text.first.flatMap(engine.tools.text) ?? prompt
        } catch {
            report(error)
            return prompt
        }
    }

    /// Runs `repl.lua` with the app file's name (or "") and the session's Swift side.
    func installPrelude(appFile: String?, session: Value) {
        do {
            let chunk = try engine.tools.load(EmbeddedLua.repl, name: "=(repl)")
            prelude = try engine.turn { turn throws(LuaError) in
                try turn.call(chunk, [.string(appFile ?? ""), session, engine.hostDebugLibrary,
                                          engine.hostPristineLibrary]).first ?? .nil
            }
        } catch {
            report(error)
        }
    }

    /// One line of input.
    func submit(_ line: [UInt8]) -> Submission {
        if pending.isEmpty && Self.isDotCommand(line) {
            remember(line)
            return runDot(line)
        }
        pending = pending.isEmpty ? line : pending + [10] + line
        if evaluate(pending) == .incomplete { return .continued }
        pending = []
        return .done
    }

    private static let blank: (UInt8) -> Bool = { $0 == 32 || $0 == 9 }

    /// A dot and no digit after it starts a command (`.tree`); `.5 + 1` is Lua, as in lua -i
    /// (repl.lua's completion decides the same way).
    static func isDotCommand(_ line: [UInt8]) -> Bool {
        let text = line.drop(while: blank)
        guard text.first == UInt8(ascii: ".") else { return false }
        guard let next = text.dropFirst().first else { return true }
        return !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
    }

    /// Ctrl-C at the prompt: incomplete input is dropped.
    func dropPending() { pending = [] }

    // MARK: Evaluation

    private enum Outcome { case done, incomplete }

    /// `repl[name]` (nil if the prelude failed: calling it is then a reported error).
    private func helper(_ name: String) -> Value { engine.tools.field(name, of: prelude) }

    /// The results as lua -i prints them, formatted a slice at a time: a million of them passed
    /// at once did not fit the formatter's Lua stack with its own copy ("(repl):69: stack overflow").
    private func printResults(_ results: [Value], in turn: borrowing Turn) throws(LuaError) {
        let slice = 4096
        for start in stride(from: 0, to: results.count, by: slice) {
            let part = Array(results[start..<min(start + slice, results.count)])
            let text = try turn.call(helper("format"), part).first.flatMap(engine.tools.text) ?? ""
            ProcessOutput.out((start == 0 ? "" : "\t") + text)
        }
        ProcessOutput.out("\n")
    }

    /// Compiles `source` and, once it is complete, keeps it in the history before it runs (as
    /// lua.c's readline does): a line that never returns (ended by Ctrl-\\, a closed terminal,
    /// `os.exit`) is in the history too.
    private func evaluate(_ source: [UInt8]) -> Outcome {
        var remembered = false
        do throws(LuaError) {
            return try engine.turn { turn throws(LuaError) -> Outcome in
                let compiled = try turn.call(helper("compile"), [engine.tools.string(bytes: source)])
                let message = compiled.count > 1 ? engine.tools.text(compiled[1]) : nil
                if message == "incomplete" { return .incomplete }
                remember(source)
                remembered = true
                guard let chunk = compiled.first, case .function = chunk else {
                    writeError(Self.syntaxError(message ?? "syntax error"), isError: true)
                    return .done
                }
                engine.forgetInnerTraceback()
                let results: [Value]
                do throws(LuaError) { results = try turn.call(chunk) } catch { throw engine.restoringInnerTraceback(error) }
                guard !results.isEmpty else { return .done }
                try printResults(results, in: turn)
                return .done
            }
        } catch {
            if !remembered { remember(source) }
            report(error)
            return .done
        }
    }

    /// A typed line that does not compile: `[syntaxError]`, Lua's message, what to do.
    static func syntaxError(_ message: String) -> String {
        Catalogue.syntaxError.message(message + "; the line did not run (the app, if any, is unchanged): fix it and type it again")
    }

    private func runDot(_ line: [UInt8]) -> Submission {
        let command = engine.tools.string(bytes: Array(line.drop(while: Self.blank).reversed().drop(while: Self.blank).reversed()))
        do throws(LuaError) {
            let result = try engine.turn { turn throws(LuaError) in
                engine.forgetInnerTraceback()
                do throws(LuaError) { return try turn.call(helper("dot"), [command]) } catch { throw engine.restoringInnerTraceback(error) }
            }
            return result.first.flatMap(engine.tools.text) == "quit" ? .quit : .done
        } catch {
            writeError(Self.dotError(error), isError: true)
            return .done
        }
    }

    /// A dot command's own complaint (starting with \u{1}) and any error of a dot command print
    /// as `shown` has them (a `ck` error it passes on, `[unknownType]`, without the REPL's place).
    static func dotError(_ e: LuaError) -> String {
        guard e.message.hasPrefix("\u{1}") else { return shown(e, always: true) }
        return shown(LuaError(message: String(e.message.dropFirst()), traceback: e.traceback, status: e.status), always: true)
    }

    /// An error as the REPL prints it, with nothing of its own Lua chunk: no "(repl):N: " in the
    /// message (a limit striking while it printed a result), no "(repl)" frame in the traceback
    /// (a result's `__tostring` or `__pairs` raising), and the traceback only if it holds a frame
    /// of the user's. An error that names no "(repl)" prints whole, unless `always`.
    static func shown(_ e: LuaError, always: Bool = false) -> String {
        guard always || e.description.contains("(repl)") else { return e.description }
        let message = withoutReplLocations(e.message)
        let frames = e.keepingFirstTraceback().traceback.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .filter { !$0.contains("(repl)") }
        let userFrames = frames.filter {
            let frame = $0.trimmingBlanks()
            return !frame.isEmpty && !frame.hasPrefix("[C]") && !frame.hasPrefix("(...")
        }
        guard !userFrames.isEmpty else { return message }
        return message + "\nstack traceback:\n" + frames.joined(separator: "\n")
    }

    /// `text` without each "(repl):N: " the chunk's name and line put in it.
    static func withoutReplLocations(_ text: String) -> String {
        var rest = Substring(text), out = ""
        while let found = rest.firstRange(of: "(repl):") {
            let digits = rest[found.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
            let after = rest[digits.endIndex...]
            guard !digits.isEmpty, after.hasPrefix(": ") else {
                out += rest[..<found.upperBound]
                rest = rest[found.upperBound...]
                continue
            }
            out += rest[..<found.lowerBound]
            rest = after.dropFirst(2)
        }
        return out + rest
    }

    func report(_ error: LuaError) {
        writeError(Self.shown(error), isError: true)
    }

    /// Writes `text` on standard error; `isError`: it reports an error (not the banner, say).
    func writeError(_ text: String, newline: Bool = true, isError: Bool = false) {
        fflush(stdout)
        ProcessOutput.err(text + (newline ? "\n" : ""))
        if isError { reported(text) }
    }
}
