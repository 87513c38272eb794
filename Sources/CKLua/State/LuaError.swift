import CKCore
import CLua

/// A Lua error that reached Swift: the message, and the traceback the handler captured.
public struct LuaError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var traceback: String
    public var status: Int32

    public init(message: String, traceback: String = "", status: Int32 = LUA_ERRRUN) {
        self.message = message
        self.traceback = traceback
        self.status = status
    }

    /// Splits what `ckpcall_traceback` produced into message and traceback.
    init(handled text: String, status: Int32) {
        let bytes = Array(text.utf8)
        if let start = bytes.firstRange(of: Tracebacks.marker)?.lowerBound {
            self.init(message: String(decoding: bytes[..<start], as: UTF8.self),
                      traceback: String(decoding: bytes[(start + 1)...], as: UTF8.self), status: status)
        } else {
            self.init(message: text, status: status)
        }
    }

    /// The catalogued id at the start of the message (`[unhandledAction] …` → `unhandledAction`).
    public var id: String? {
        guard message.first == "[", let close = message.firstIndex(of: "]") else { return nil }
        return String(message[message.index(after: message.startIndex)..<close])
    }

    /// Whether the chunk did not compile (Lua's `LUA_ERRSYNTAX`).
    public var isSyntaxError: Bool { status == LUA_ERRSYNTAX }

    public var description: String { traceback.isEmpty ? message : message + "\n" + traceback }
}
