import CLua
import CLuaShims
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// lua.c's REPL on standard input that is not a terminal (`-i` in a pipe): prompts on stdout,
/// `=expr` and expressions print their values, errors without the progname. Every step that
/// can run a script's code is a turn (--timeout, --memory-limit, Ctrl-C): the prompt's
/// conversion (`_PROMPT`'s __tostring), the compiling, the chunk with the printing of its
/// results; the blocking read is outside any turn, so waiting for input is never timed.
extension LuaMain {
    /// False when a global it looks up (`_PROMPT`, `print`) raised: lua.c's REPL ends with
    /// that error, and so does this one.
    func readEvalPrint() -> Bool {
        while true {
            lua_settop(L, 0)
            switch readStatement() {
            case .endOfInput: break
            case .promptFailed(let status): return endWithError(status)
            case .compiled(let status): if !evaluate(compiled: status) { return endWithError(LUA_ERRRUN) }
                continue
            }
            break
        }
        lua_settop(L, 0)
        fputs("\n", ckmacros_stdout())
        fflush(ckmacros_stdout())
        return true
    }

    private enum Statement {
        case endOfInput
        /// The prompt's lookup or conversion failed: the status, its error on top.
        case promptFailed(Int32)
        /// The status, the chunk or the compile error on top.
        case compiled(Int32)
    }

    private func readStatement() -> Statement {
        var first = true
        while true {
            let shown = showPrompt(first: first)
            guard shown == LUA_OK else { return .promptFailed(shown) }
            var length = 0
            let line = ckluarepl_getline(&length)
            defer { free(line) }
            if line == nil && first { return .endOfInput }
            let status = inTurn { ckluarepl_compile(L, line, length) }
            if status != CK_REPL_INCOMPLETE { return .compiled(status) }
            first = false
        }
    }

    /// Writes `_PROMPT` (or `_PROMPT2`), converted in a turn; the status, an error on top.
    private func showPrompt(first: Bool) -> Int32 {
        let status = inTurn { ckluarepl_prompt(L, first ? 1 : 0) }
        guard status == LUA_OK else { return status }
        var length = 0
        if let text = ckmacros_tostring(L, -1, &length) { fwrite(text, 1, length, ckmacros_stdout()) }
        fflush(ckmacros_stdout())
        ckmacros_pop(L, 1)
        return LUA_OK
    }

    /// Runs a compiled chunk and prints its results as one turn, or reports the compile error;
    /// false when looking `print` up raised.
    private func evaluate(compiled: Int32) -> Bool {
        var printed: Int32 = 0
        var status = compiled
        if status == LUA_OK { status = call(arguments: 0, results: LUA_MULTRET) { printed = ckluarepl_print(L, 0) } }
        if status == LUA_OK { return printed != -2 }
        if status == LUA_ERRMEM {
            writeError(Array(engine.lua.popError(status: status).description.utf8), withProgname: false)
        } else {
            writeError(topErrorBytes(), withProgname: false)
        }
        return true
    }

    private func inTurn(_ step: () -> Int32) -> Int32 {
        var status: Int32 = LUA_ERRRUN
        _ = try? engine.turn { _ throws(LuaError) in status = step() }
        return status
    }

    private func topErrorBytes() -> [UInt8] {
        var length = 0
        let text = ckmacros_tostring(L, -1, &length)
        return text.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? Array("(error object is not a string)".utf8)
    }

    /// The REPL's own error (lua.c reports it without the progname, as in interactive mode).
    private func endWithError(_ status: Int32) -> Bool {
        if status == LUA_ERRMEM {
            writeError(Array(engine.lua.popError(status: status).description.utf8), withProgname: false)
        } else {
            writeError(topErrorBytes(), withProgname: false)
        }
        lua_settop(L, 0)
        return false
    }
}
