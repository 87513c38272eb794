/// Where a failure or error was raised: busted's `getTrace` (the first frame outside luassert
/// and the runner), which its `-o json` report gives as a failure's `trace`. The runner's record
/// field is `line:linedefined:lastlinedefined:what:kind`, NUL, short_src, NUL, source.
struct RaiseSite: Codable, Sendable, Equatable {
    var line: Int
    var lineDefined: Int
    var lastLineDefined: Int
    /// getinfo's `what`: "Lua" or "main".
    var what: String
    /// luassert's failure (busted's trace `message` is then its table), not an error value.
    var isAssertion: Bool
    var shortSource: String
    var source: String

    init?(record: String) {
        let parts = record.split(separator: "\0", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let head = parts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard head.count == 5, let line = Int(head[0]), let defined = Int(head[1]), let last = Int(head[2]) else { return nil }
        (self.line, lineDefined, lastLineDefined) = (line, defined, last)
        (what, isAssertion) = (String(head[3]), head[4] == "failure")
        (shortSource, source) = (String(parts[1]), String(parts[2]))
    }

    var record: String {
        "\(line):\(lineDefined):\(lastLineDefined):\(what):\(isAssertion ? "failure" : "error")\0\(shortSource)\0\(source)"
    }

    /// The file as ckrun's reports name files: a file chunk's whole path (Lua's short_src cuts
    /// one past 60 bytes to "...tail"; busted prints that), else Lua's short name.
    var file: String { source.hasPrefix("@") ? String(source.dropFirst()) : shortSource }
}
