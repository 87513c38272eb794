import CKCore

/// The one line of an error the status line and the tap's trace show, made from the error's
/// parts as the runtime composed them, never by editing its words: a catalogued heading
/// (`[buildFailed] building generation 3 … raised in the render of Counter; …`,
/// `[actionFailed] Boom.save of Boom (handling "save") raised:`) over the message of the error
/// it wraps (`app.lua:4: unlucky two`), then the traceback. The innermost message says what and
/// where (file:line), so it leads, with the innermost catalogued id, then the heading's words:
/// `[buildFailed] app.lua:4: unlucky two — building generation 3 …`. An error of one line (and
/// any message of the app's own) is shown as it is; the row cuts what does not fit.
enum ErrorHeadline {
    static func of(_ error: String) -> String {
        // The count of a heading repeated by nested builds says nothing of what failed.
        let lines = messageLines(error).filter { !BuildFailure.isRepeatCount($0) }
        guard let heading = lines.first, let outer = catalogued(heading), lines.count > 1 else { return lines.first ?? "" }
        // A heading may wrap another catalogued heading (a build inside a render): the
        // innermost one's id and the message under it.
        var id = outer, at = 1
        while at + 1 < lines.count, let inner = catalogued(lines[at]) {
            id = inner
            at += 1
        }
        let innermost = lines[at]
        // The heading's words after the id the catalogue put first (`[id] `).
        let detail = heading.dropFirst(outer.count + 3)
        if catalogued(innermost) != nil { return innermost + " — " + detail }
        return "[\(id)] " + innermost + " — " + detail
    }

    /// The message's lines, the traceback left out.
    private static func messageLines(_ error: String) -> [String] {
        var lines: [String] = []
        for line in error.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "stack traceback:" { break }
            lines.append(String(line))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// The catalogued id of an error (`buildFailed`), nil for a message of the script's own.
    static func id(of error: String) -> String? { catalogued(messageLines(error).first ?? "") }

    /// The catalogue's id a line starts with (`[buildFailed] …`), nil if it starts with none.
    private static func catalogued(_ line: String) -> String? {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return nil }
        let id = String(line[line.index(after: line.startIndex)..<close])
        return Catalogue(rawValue: id) == nil ? nil : id
    }
}
