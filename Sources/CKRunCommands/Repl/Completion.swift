import CEditLine
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

/// Tab completion of globals and fields, and of dot commands and their arguments, computed by
/// the REPL's Lua side in a turn of its own. It only looks (`repl.lua`: rawget, next, `__index`
/// tables, a runtime object's fields), so no script's metamethod runs on a Tab.
enum Completion {
    nonisolated(unsafe) static var engine: Engine?
    /// Words break at `.` and `:` too, so the candidates list shows field names; the
    /// expression before them is read from the line (`app.root:up` → `updateState`).
    nonisolated(unsafe) static let wordBreaks: UnsafeMutablePointer<CChar> = strdup(" \t\n\"\\'`@$><=;|&{(,+-*/%^~#[].:")
    /// The table `repl.lua` returned.
    nonisolated(unsafe) static var prelude: () -> Value = { .nil }
    nonisolated(unsafe) static var candidates: [String] = []

    static let generate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { text, state in
        if state == 0 {
            let word = text.map { String(cString: $0) } ?? ""
            let expression = expressionBeforeCursor() ?? word
            // Candidates come back whole (`app.root:updateState`); libedit wants the word.
            let cut = max(0, expression.utf8.count - word.utf8.count)
            candidates = compute(expression).map { String(decoding: $0.utf8.dropFirst(cut), as: UTF8.self) }
        }
        let i = Int(state)
        guard i < candidates.count else { return nil }
        return strdup(candidates[i])
    }

    /// The name-and-field chain that ends at the cursor (`app.root:up`), or the whole line of a
    /// dot command (`.chain Bu`: its arguments are words, not Lua).
    private static func expressionBeforeCursor() -> String? {
        var length = 0
        guard let bytes = ckedit_line_before_cursor(&length) else { return nil }
        return expression(before: Array(UnsafeRawBufferPointer(start: bytes, count: length)))
    }

    /// What completes at the end of `line` (the text before a cursor): the name-and-field chain
    /// there, or the whole line of a dot command. The live view's command line asks it too.
    static func expression(before line: [UInt8]) -> String {
        if line.first(where: { $0 != 32 && $0 != 9 }) == UInt8(ascii: ".") { return String(decoding: line, as: UTF8.self) }
        var start = line.count
        while start > 0, let c = Optional(line[start - 1]),
              c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") || c >= 0x80
                || (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7a) {
            start -= 1
        }
        return String(decoding: line[start...], as: UTF8.self)
    }

    /// The candidates, or none when the turn failed (a limit, Ctrl-C, an error in `__index`).
    static func compute(_ text: String) -> [String] {
        guard let engine else { return [] }
        let found = try? engine.turn { turn throws(LuaError) in
            try turn.call(engine.tools.field("complete", of: prelude()), [.string(text)]).first
        }
        return found.flatMap { $0 }.map(engine.tools.strings) ?? []
    }
}
