/// The one line of an error the status line and the tap's trace show. Most errors' first line
/// says it all; a heading that ends with `:` (`[actionFailed] Boom.save of Boom (handling
/// "save") raised:`) is followed by the handler's own message, which says what and where, so
/// that comes first: `[actionFailed] app.lua:1: attempt to index a nil value (Boom.save of Boom
/// (handling "save") raised)`. A component the heading names as the place (`raised in the
/// render of Root/List/Row`) comes right after the id, where a cut status line still shows it:
/// `[buildFailed] Root/List/Row: building generation 3 … raised in its render; …`.
enum ErrorHeadline {
    static func of(_ error: String) -> String { componentFirst(cause(error)) }

    private static let renderOf = "the render of "

    private static func componentFirst(_ headline: String) -> String {
        guard headline.hasPrefix("["), let close = headline.firstIndex(of: "]"),
              let mention = headline.firstRange(of: renderOf) else { return headline }
        let path = String(headline[mention.upperBound...].prefix { !Self.endsPath($0) })
        guard !path.isEmpty else { return headline }
        let rest = String(headline[headline.index(after: close)...].drop { $0 == " " })
        let id = String(headline[...close])
        return id + " " + path + ": " + rest.replacing(renderOf + path, with: "its render")
    }

    private static func endsPath(_ c: Character) -> Bool {
        c == ";" || c == " " || c == "," || c == ":"
    }

    private static func cause(_ error: String) -> String {
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
