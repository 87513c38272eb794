import CKCore
import CLua
import CLuaShims

/// What a Swift function sees: the calling thread's stack and the state.
/// A function returns the number of results it pushed, or `raise(...)`.
public struct SwiftCall: ~Copyable {
    public let L: OpaquePointer
    public unowned(unsafe) let state: LuaState

    public var argumentCount: Int32 { lua_gettop(L) }

    /// Pushes an error message and returns the sentinel the trampoline raises after we return.
    public func raise(_ message: String) -> Int32 {
        var m = message
        m.withUTF8 { b in
            _ = b.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
        return CK_RAISE
    }

    /// Raises a catalogued error, with the calling Lua position added after the id.
    public func raise(_ error: Catalogue, _ detail: String) -> Int32 {
        raise(error.message(detail, at: location()))
    }

    /// `file:line` of the Lua code that called this function, or nil.
    public func location(level: Int32 = 1) -> String? { Self.location(on: L, level: level) }

    /// `file:line` of the Lua function `level` calls up `L`'s stack, or of the first one above it
    /// when that is C (`pcall(c.updateState, c, 1)`: the script's line is pcall's caller's), or nil.
    static func location(on L: OpaquePointer, level: Int32) -> String? {
        var ar = lua_Debug()
        var level = level
        while true {
            guard lua_getstack(L, level, &ar) != 0, lua_getinfo(L, "Sl", &ar) != 0 else { return nil }
            if ar.currentline > 0 { break }
            level += 1
        }
        let source = withUnsafeBytes(of: &ar.short_src) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        return "\(source):\(ar.currentline)"
    }

    public func type(at index: Int32) -> Int32 { lua_type(L, index) }
    public func typeName(at index: Int32) -> String { String(cString: lua_typename(L, lua_type(L, index))) }
    public func string(at index: Int32) -> String? { state.string(at: index, on: L) }
}

extension SwiftCall {
    public func push(_ number: Double) { lua_pushnumber(L, number) }
}
