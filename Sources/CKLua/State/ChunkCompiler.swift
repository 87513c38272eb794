import CKCore
import CLua
import CLuaShims

/// A bare Lua state (no library, no engine) that compiles chunks and Lua modules into bytecode
/// (`lua_dump`, debug information kept) for `CompiledChunks`, on a thread of its own while the
/// process starts. Everything it hands out is new memory of its own: nothing it touches is
/// shared with another thread.
public final class ChunkCompiler {
    private let state = LuaState(openLibraries: false)

    public init() {}

    deinit { state.close() }

    /// The bytecode of `source` compiled as text under `name`, or nil when it does not compile.
    public func compile(_ source: LuaSource, name: String) -> [UInt8]? {
        let stack = LuaStack(state.L)
        let base = stack.top
        defer { stack.top = base }
        guard state.loadKeepingError(source, name: name, mode: "t") == LUA_OK else { return nil }
        return dumpTop(state.L)
    }

    /// Lua module `name` compiled from the text of the file `require` would find for it with the
    /// package.path a state starts with (LUA_PATH_5_4, LUA_PATH or Lua's default); nil when
    /// there is none, it is no regular file, it does not compile or it changed while read.
    public func compileModule(_ name: String) -> CompiledModule? {
        let L = state.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        var identity = ck_file_identity()
        guard ckmodules_compile(L, name, &identity) == 2 else { return nil }
        var length = 0
        guard let text = lua_tolstring(L, -1, &length) else { return nil }   // a string: no conversion
        let path = [UInt8](UnsafeRawBufferPointer(start: text, count: length))
        stack.pop(1)
        guard let bytes = dumpTop(L) else { return nil }
        return CompiledModule(bytecode: bytes, path: path, file: FileIdentity(identity))
    }
}

/// A module's bytecode with the file it was compiled from: its path as `package.searchpath`
/// returned it (bytes) and which file that path named then.
public struct CompiledModule {
    public let bytecode: [UInt8]
    public let path: [UInt8]
    public let file: FileIdentity

    public init(bytecode: [UInt8], path: [UInt8], file: FileIdentity) {
        (self.bytecode, self.path, self.file) = (bytecode, path, file)
    }

    /// Whether `path` names the file this was compiled from, unchanged since.
    func isStill(at path: [UInt8]) -> Bool {
        path == self.path && FileIdentity(path: path) == file
    }
}

/// Device, inode, size and modification and change times of a file (`ck_file_identity`).
public struct FileIdentity: Equatable {
    private let identity: ck_file_identity

    init(_ identity: ck_file_identity) { self.identity = identity }

    /// The regular file (not on /proc or /sys) `path` names now; nil for anything else.
    init?(path: [UInt8]) {
        guard !path.contains(0) else { return nil }
        var identity = ck_file_identity()
        let found = (path + [0]).withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { ckmodules_identity($0.baseAddress, &identity) }
        }
        guard found == 1 else { return nil }
        self.identity = identity
    }

    public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        let (x, y) = (a.identity, b.identity)
        return x.device == y.device && x.inode == y.inode && x.size == y.size
            && x.modified_seconds == y.modified_seconds && x.modified_nanoseconds == y.modified_nanoseconds
            && x.changed_seconds == y.changed_seconds && x.changed_nanoseconds == y.changed_nanoseconds
    }
}
