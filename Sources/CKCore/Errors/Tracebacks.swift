/// Tracebacks as Lua's `luaL_traceback` writes them, after a message or each other.
public enum Tracebacks {
    /// Where a traceback starts in text that holds a message before it.
    public static let marker = Array("\nstack traceback:\n".utf8)

    /// `traceback` (starting "stack traceback:") up to the next traceback it holds: an error
    /// raised again through the runtime carries the traceback taken where it first happened,
    /// then the one taken where it reached the caller, repeating frames the first has (same
    /// thread). Nested builds stacked one per level, growing with the square of the depth.
    public static func first(_ traceback: String) -> String {
        let bytes = Array(traceback.utf8)
        guard let again = bytes.firstRange(of: marker)?.lowerBound else { return traceback }
        return String(decoding: bytes[..<again], as: UTF8.self)
    }
}
