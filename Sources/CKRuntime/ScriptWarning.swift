import CKCore

/// A warning the runtime gave while it ran a script (docs/errors.md lists them: `[scopeCollision]`,
/// `[unknownProp]` …): its catalogued id (compare ``id``'s `rawValue`: warnings' ids have no
/// static property), the script's place when it names one, and the whole message.
///
/// Warnings go to ``Runtime/Configuration/onWarning`` when you set one, else to standard error
/// (as `ckrun` writes them). A script that sets `ck.config.onWarning` receives them instead.
public struct ScriptWarning: Sendable, CustomStringConvertible {
    /// The catalogued id at the start of the message (`[scopeCollision]`).
    public let id: ErrorID
    /// The script's `file:line` the warning names, if it names one (`list.lua:3`).
    public let place: String?
    /// The whole message as standard error would show it: `[id] place: what happened; what to do`.
    public let message: String

    /// The message.
    public var description: String { message }

    /// The warning whose message is `text` (`[id] file:line: detail` or `[id] detail`).
    init(_ text: String) {
        message = text
        var rest = Substring(text)
        var found: ErrorID?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            found = ErrorID(rawValue: String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        id = found ?? .scriptFailed
        place = ScriptWarning.place(at: rest)
    }

    /// `file:line` at the start of `text`, before its first `: `, or nil.
    private static func place(at text: Substring) -> String? {
        var i = text.startIndex
        while let colon = text[i...].firstIndex(of: ":") {
            let after = text.index(after: colon)
            if after < text.endIndex, text[after] == " " { return fileAndLine(text[..<colon]) }
            i = after
        }
        return nil
    }

    /// `head` when it is `file:digits`.
    private static func fileAndLine(_ head: Substring) -> String? {
        guard let colon = head.lastIndex(of: ":"), colon > head.startIndex else { return nil }
        let line = head[head.index(after: colon)...]
        guard !line.isEmpty, line.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(head)
    }
}
