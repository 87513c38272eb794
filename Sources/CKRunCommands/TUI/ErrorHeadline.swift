/// The one line of an error the status line and the tap's trace show. Most errors' first line
/// says it all; a heading that ends with `:` (`[actionFailed] Boom.save of Boom (handling
/// "save") raised:`) is followed by the handler's own message, which says what and where, so
/// that comes first: `[actionFailed] app.lua:1: attempt to index a nil value (Boom.save of Boom
/// (handling "save") raised)`.
enum ErrorHeadline {
    static func of(_ error: String) -> String {
        let lines = error.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        let first = lines.first.map(String.init) ?? ""
        guard first.hasSuffix(":"), lines.count > 1, !lines[1].isEmpty else { return first }
        let cause = String(lines[1])
        let heading = String(first.dropLast())
        guard heading.hasPrefix("["), let close = heading.firstIndex(of: "]") else { return "\(cause) (\(heading))" }
        let rest = heading[heading.index(after: close)...].drop { $0 == " " }
        return "\(heading[...close]) \(cause) (\(rest))"
    }
}
