/// A string the library hands to C as a C string (a file's path, a chunk's name, a search path):
/// C ends it at its first NUL, so `"secret.txt\0.lua"` opened secret.txt and `"app.lua\0x"`
/// named the chunk app.lua (attack embed 01). Every public argument that crosses
/// as a C string passes through here first; the rest cross as Lua strings, which keep every byte.
enum CStringArgument {
    /// `text`, or ``ErrorID/badArgument`` naming `argument` (`load(file:)'s path`) when it holds a NUL byte.
    @inline(__always)
    static func checked(_ text: String, _ argument: String) throws(ScriptError) -> String {
        guard let at = text.utf8.firstIndex(of: 0) else { return text }
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: at)
        throw ScriptError(.badArgument, "\(argument) holds a NUL byte (at byte \(offset)), where C would end it and use the text before it; pass it without NUL bytes")
    }
}
