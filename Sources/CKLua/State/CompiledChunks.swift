import CKCore
import CLua
import CLuaShims
#if canImport(Glibc)
import Glibc
#endif

/// A host's own Lua compiled once per process: the first state compiles a chunk from its text
/// and records its bytecode (`lua_dump`, debug information kept); later states load that
/// bytecode instead of compiling again. Only bytecode this process's Lua made from a function
/// it compiled is ever recorded, so it is loaded through a trusted path even when the state
/// loads scripts as text only (`--sandbox`); nothing here is reachable from a script, which
/// still cannot load a binary chunk. One engine at a time (the runner is single-threaded).
public final class CompiledChunks {
    private var bytecode: [String: [UInt8]] = [:]
    /// Names recorded with `record`, in the order they were recorded.
    public private(set) var recorded: [String] = []
    /// Chunks and modules being compiled on another thread (`ChunksAhead`), until `finishAhead`.
    private var ahead: ChunksAhead?
    /// Modules compiled ahead that no state took before `finishAhead`.
    private var modules: [String: CompiledModule] = [:]

    public init() {}

    /// Takes chunks and modules from `compiling` as they are loaded, until `finishAhead`.
    public func compileAhead(_ compiling: ChunksAhead) {
        guard ahead == nil else { return }
        ahead = compiling
    }

    /// Whether chunks are being compiled ahead (a thread of the process may be running).
    public var isCompilingAhead: Bool { ahead != nil }

    /// Waits for the chunks compiled ahead and keeps them (a chunk that could not be compiled
    /// there is compiled where it is loaded, and reports its error there).
    public func finishAhead() {
        guard let compiling = ahead else { return }
        ahead = nil
        let (chunks, compiledModules) = compiling.finish()
        for (name, bytes) in chunks where bytecode[name] == nil { bytecode[name] = bytes }
        for (name, module) in compiledModules where bytecode[name] == nil { modules[name] = module }
    }

    /// The function of chunk `name`: from its recorded bytecode, or compiled from `source`
    /// (then recorded for the next state).
    public func load(_ source: LuaSource, name: String, in engine: Engine) throws(LuaError) -> Value {
        if bytecode[name] == nil, let bytes = ahead?.chunk(name) { bytecode[name] = bytes }
        if let bytes = bytecode[name], let function = engine.loadTrusted(bytes, name: name) { return function }
        let function = try engine.tools.load(source, name: name)
        if let bytes = engine.bytecode(of: function) { bytecode[name] = bytes }
        return function
    }

    /// Lua module `name`'s loader compiled ahead (`ChunkCompiler.compileModule`), recorded
    /// under `name` as `record` does, if `path` (where the state's `require` found it) still
    /// names the very file it was compiled from; nil otherwise (the caller loads the file).
    public func module(_ name: String, path: [UInt8], in engine: Engine) -> Value? {
        guard bytecode[name] == nil, let compiled = ahead?.module(name) ?? modules.removeValue(forKey: name), compiled.isStill(at: path),
              let function = engine.loadTrusted(compiled.bytecode, name: name) else { return nil }
        bytecode[name] = compiled.bytecode
        recorded.append(name)
        return function
    }

    /// Records a Lua function a state compiled (a module's loader) under `name`; false for
    /// anything else (C functions, values that are not functions).
    @discardableResult
    public func record(_ function: Value, as name: String, in engine: Engine) -> Bool {
        guard bytecode[name] == nil, let bytes = engine.bytecode(of: function) else { return false }
        bytecode[name] = bytes
        recorded.append(name)
        return true
    }

    /// The function recorded under `name`, loaded into `engine` (nil if there is none).
    public func function(_ name: String, in engine: Engine) -> Value? {
        bytecode[name].flatMap { engine.loadTrusted($0, name: name) }
    }
}

/// Chunks and modules compiled while the process does something else, each taken once by the
/// thread that loads it (`CompiledChunks`).
public protocol ChunksAhead: AnyObject {
    /// Chunk `name`'s bytecode once compiled; nil when it is not compiled ahead, then or ever (the
    /// caller compiles it).
    func chunk(_ name: String) -> [UInt8]?
    /// Module `name` once compiled; nil when it is not compiled ahead, then or ever.
    func module(_ name: String) -> CompiledModule?
    /// Ends the compiling (waits for it) and hands over the chunks and modules not taken.
    func finish() -> (chunks: [(String, [UInt8])], modules: [(String, CompiledModule)])
}

extension Engine {
    /// The bytecode of a Lua function (`lua_dump`, debug information kept); nil for others.
    func bytecode(of function: Value) -> [UInt8]? {
        let L = lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        values.push(function, L)
        guard lua_type(L, -1) == LUA_TFUNCTION, lua_iscfunction(L, -1) == 0 else { return nil }
        return dumpTop(L)
    }

    /// Loads bytecode `bytecode(of:)` made in this process, whatever the state's loading mode.
    func loadTrusted(_ bytes: [UInt8], name: String) -> Value? {
        let L = lua.L
        let stack = LuaStack(L)
        let base = stack.top
        defer { stack.top = base }
        let status = bytes.withUnsafeBytes { raw in
            ckpcall_load_trusted_bytecode(L, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, name)
        }
        return status == LUA_OK ? values.value(at: -1, L) : nil
    }
}

/// `lua_dump`'s output, in memory grown by doubling: the writer is called for every byte and
/// number of the chunk, where `Array.append(contentsOf:)` cost ~60 instructions a call (3M of
/// the 29M that preparing `ckrun test`'s first state costs, before `--jobs` forks).
private struct DumpBuffer {
    private var storage: UnsafeMutableRawPointer?
    private(set) var count = 0
    private var capacity = 0

    /// false when no memory was to be had (the dump then fails).
    mutating func append(_ data: UnsafeRawPointer, _ size: Int) -> Bool {
        if count + size > capacity {
            let wanted = max(capacity * 2, count + size, 4096)
            guard let grown = realloc(storage, wanted) else { return false }
            (storage, capacity) = (grown, wanted)
        }
        storage.unsafelyUnwrapped.advanced(by: count).copyMemory(from: data, byteCount: size)
        count += size
        return true
    }

    var bytes: [UInt8] { [UInt8](UnsafeRawBufferPointer(start: storage, count: count)) }

    mutating func release() {
        free(storage)
        (storage, count, capacity) = (nil, 0, 0)
    }
}

/// The bytecode of the Lua function on top of `L` (`lua_dump`, debug information kept).
func dumpTop(_ L: OpaquePointer) -> [UInt8]? {
    var out = DumpBuffer()
    defer { out.release() }
    let status = withUnsafeMutablePointer(to: &out) { pointer in
        lua_dump(L, { _, data, size, ud in
            guard let data, let ud else { return 0 }
            return ud.assumingMemoryBound(to: DumpBuffer.self).pointee.append(data, size) ? 0 : 1
        }, pointer, 0)
    }
    return status == 0 && out.count > 0 ? out.bytes : nil
}
