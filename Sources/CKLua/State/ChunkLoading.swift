import CKCore
import CLua
import CLuaShims

/// A chunk's source as Lua gets it: the bytes as read, never decoded (issue 24, class 8: a
/// Latin-1 literal is one byte, as in lua5.4; decoding into a `String` made it three). Every
/// loader takes one. ckrun's own Lua is a string literal or `LuaSource(bytes: text.utf8)`; there
/// is deliberately no initializer from a `String` value, whose bytes may come from a decoding.
public struct LuaSource: ExpressibleByStringLiteral {
    public let bytes: [UInt8]

    public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }
    public init(stringLiteral literal: StaticString) {
        bytes = Array(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}

/// Chunks loaded from bytes, exactly as `lua` loads them: never through a Swift `String`.
extension LuaState {
    /// Loads a chunk onto the stack. A file's chunk (a name starting with `@`) skips a BOM and
    /// a `#` first line as `luaL_loadfilex` does, keeping line numbers. Under `--sandbox` only
    /// text loads (`ckpcall_loadbuffer`).
    public func load(_ source: LuaSource, name: String, mode: String = "bt") throws(LuaError) {
        let status = loadKeepingError(source, name: name, mode: mode)
        if status != LUA_OK { throw popError(status: status) }
    }

    /// `load`, leaving the error on the stack (the `[sandbox]` refusal for a binary chunk under
    /// `--sandbox`) and returning the status, for callers that report as lua.c does.
    public func loadKeepingError(_ source: LuaSource, name: String, mode: String = "bt") -> Int32 {
        let body = name.hasPrefix("@") ? LuaState.skippingFilePrefix(source.bytes) : source.bytes[...]
        return body.withUnsafeBytes { raw in
            ckpcall_loadbuffer(L, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, name, mode)
        }
    }

    /// Loads a file as `luaL_loadfilex` does (a UTF-8 BOM and a `#` first line skipped, binary
    /// chunks detected); `nil` reads standard input. On failure the error is left on the stack
    /// and its status returned, for callers that report as lua.c does.
    public func loadFileKeepingError(_ path: UnsafePointer<CChar>?) -> Int32 {
        ckpcall_loadfile(L, path)
    }

    public func loadFileKeepingError(_ path: String?) -> Int32 {
        guard let path else { return loadFileKeepingError(nil as UnsafePointer<CChar>?) }
        return BytePath.withCString(path) { loadFileKeepingError($0) }
    }

    /// Loads a file as `luaL_loadfilex` does; `nil` reads standard input.
    public func loadFile(_ path: String?) throws(LuaError) {
        let status = loadFileKeepingError(path)
        if status != LUA_OK { throw popError(status: status) }
    }

    /// The part of a file's bytes `luaL_loadfilex` compiles: after a UTF-8 BOM, and with a first
    /// line that starts with `#` dropped (its newline kept, so line numbers stay).
    public static func skippingFilePrefix(_ bytes: some Collection<UInt8>) -> ArraySlice<UInt8> {
        var rest = ArraySlice(bytes)
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        if rest.first == UInt8(ascii: "#") {
            rest = rest.drop { $0 != UInt8(ascii: "\n") }
        }
        return rest
    }
}

extension Engine {
    /// `collectgarbage("generational")`, which lua.c sets before it runs anything.
    public func useGenerationalCollector() { ckstate_gc_generational(lua.L) }

    /// Closes the Lua state now, as lua.c does before it exits: pending finalizers run (and
    /// their errors are warnings). The engine must not run Lua afterwards.
    public func close() {
        lua.owner = nil
        isClosing = true
        refs.L = nil
        refs.currentThread = nil
        lua.close()
    }

    /// How many component classes have been defined so far (the built-in ones included).
    public var definedComponentClasses: Int { componentClassesDefined }
}
