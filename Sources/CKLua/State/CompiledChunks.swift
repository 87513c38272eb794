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
    /// Chunks being compiled on a thread of their own (`compileAhead`).
    private var ahead: CompilingAhead?

    public init() {}

    /// Compiles `chunks` on a thread of their own, each in a bare state (no engine, no library),
    /// while this thread goes on: their bytecode is taken when one of them is loaded, or at
    /// `finishAhead`. For `--jobs`, whose parent compiles before it forks while the other core
    /// has nothing to run. Does nothing when no thread can be had.
    public func compileAhead(_ chunks: [(name: String, source: LuaSource)]) {
        guard ahead == nil else { return }
        ahead = CompilingAhead(chunks.filter { bytecode[$0.name] == nil })
    }

    /// Waits for `compileAhead`'s thread and keeps what it compiled (a chunk it could not
    /// compile is compiled again where it is loaded, and reports its error there).
    public func finishAhead() {
        guard let compiling = ahead else { return }
        ahead = nil
        for (name, bytes) in compiling.join() where bytecode[name] == nil { bytecode[name] = bytes }
    }

    /// The function of chunk `name`: from its recorded bytecode, or compiled from `source`
    /// (then recorded for the next state).
    public func load(_ source: LuaSource, name: String, in engine: Engine) throws(LuaError) -> Value {
        if bytecode[name] == nil, ahead?.names.contains(name) == true { finishAhead() }
        if let bytes = bytecode[name], let function = engine.loadTrusted(bytes, name: name) { return function }
        let function = try engine.tools.load(source, name: name)
        if let bytes = engine.bytecode(of: function) { bytecode[name] = bytes }
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

/// A thread compiling chunks, each in a bare `LuaState` of its own thread, into bytecode
/// (`CompiledChunks.compileAhead`); joined once.
private final class CompilingAhead {
    private var thread = pthread_t()
    private let chunks: [(name: String, source: LuaSource)]
    let names: Set<String>
    private var compiled: [(String, [UInt8])] = []

    init?(_ chunks: [(name: String, source: LuaSource)]) {
        self.chunks = chunks
        names = Set(chunks.map(\.name))
        guard !chunks.isEmpty else { return nil }
        // Retained for the thread until `join`.
        let me = Unmanaged.passRetained(self)
        let made = pthread_create(&thread, nil, { raw in
            Unmanaged<CompilingAhead>.fromOpaque(raw!).takeUnretainedValue().compileAll()
            return nil
        }, me.toOpaque())
        guard made == 0 else { me.release(); return nil }
    }

    /// The chunks' bytecode, once the thread ended.
    func join() -> [(String, [UInt8])] {
        pthread_join(thread, nil)
        Unmanaged.passUnretained(self).release()
        return compiled
    }

    private func compileAll() {
        let state = LuaState(openLibraries: false)
        defer { state.close() }
        let stack = LuaStack(state.L)
        for chunk in chunks {
            let base = stack.top
            defer { stack.top = base }
            guard (try? state.load(chunk.source, name: chunk.name, mode: "t")) != nil, let bytes = dumpTop(state.L) else { continue }
            compiled.append((chunk.name, bytes))
        }
    }
}

/// The bytecode of the Lua function on top of `L` (`lua_dump`, debug information kept).
private func dumpTop(_ L: OpaquePointer) -> [UInt8]? {
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
