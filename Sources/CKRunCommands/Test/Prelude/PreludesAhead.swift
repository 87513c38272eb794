import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// The preludes and luassert's modules compiled on a thread of their own from the moment
/// `ckrun test` starts, while this thread parses the command line, finds the files and makes
/// the first state (`SpecPrelude.compileAhead`). Each piece is compiled once, by whichever
/// thread gets to it first: the first state takes what the thread compiled, or, for a piece the
/// thread has not started, claims it and compiles it itself (the thread then skips it).
///
/// The thread shares nothing with the rest of the process but this object, read and written
/// under its lock: it compiles its own copies of the sources in a state of its own
/// (`ChunkCompiler`), and what it compiled is handed out as copies. (CKLua counts references
/// without atomic instructions: a buffer it retains must belong to one thread at a time.)
final class PreludesAhead: ChunksAhead, @unchecked Sendable {
    enum Piece {
        case chunk(name: String, source: LuaSource)
        case module(String)
    }

    private enum Slot {
        case waiting, compiling, taken
        case chunk([UInt8]?)
        case module(CompiledModule?)
    }

    private let condition = Condition()
    /// The thread's own copies, in the order it compiles them.
    private let pieces: [Piece]
    private var slots: [Slot]
    /// Where each piece's slot is, for the loading thread.
    private let chunkSlots: [String: Int], moduleSlots: [String: Int]
    private var thread = pthread_t()
    private var joined = false

    /// Starts the thread on `pieces`, in that order; nil when no thread can be had.
    init?(_ pieces: [Piece]) {
        var chunks: [String: Int] = [:], modules: [String: Int] = [:]
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .chunk(let name, _): chunks[name] = index
            case .module(let name): modules[name] = index
            }
        }
        (chunkSlots, moduleSlots) = (chunks, modules)
        self.pieces = pieces.map { piece in
            switch piece {
            case .chunk(let name, let source): .chunk(name: Self.copy(name), source: LuaSource(bytes: Self.copy(source.bytes)))
            case .module(let name): .module(Self.copy(name))
            }
        }
        slots = Array(repeating: .waiting, count: pieces.count)
        // No signal reaches the thread: each is handled where the process expects it.
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let me = Unmanaged.passRetained(self)   // the thread's, until `finish`
        let made = pthread_create(&thread, nil, { raw in
            Unmanaged<PreludesAhead>.fromOpaque(raw!).takeUnretainedValue().compileAll()
            return nil
        }, me.toOpaque())
        guard made == 0 else { me.release(); return nil }
    }

    func chunk(_ name: String) -> [UInt8]? {
        guard let index = chunkSlots[name], case .chunk(let bytes?) = take(index) else { return nil }
        return Self.copy(bytes)
    }

    func module(_ name: String) -> CompiledModule? {
        guard let index = moduleSlots[name], case .module(let module?) = take(index) else { return nil }
        return CompiledModule(bytecode: Self.copy(module.bytecode), path: Self.copy(module.path), file: module.file)
    }

    /// Compiles, on this thread too, the pieces the thread has not begun, the last first, until
    /// none is left (the thread works from the other end): before `--jobs` forks, when this
    /// thread has no state of its own to make.
    func help() {
        var compiler: ChunkCompiler?
        while let index = next(last: true) {
            let mine = compiler ?? ChunkCompiler()
            compiler = mine
            // Copies: the piece's storage is the thread's (see the type's note).
            let result: Slot = switch pieces[index] {
            case .chunk(let name, let source): .chunk(mine.compile(LuaSource(bytes: Self.copy(source.bytes)), name: Self.copy(name)))
            case .module(let name): .module(mine.compileModule(Self.copy(name)))
            }
            condition.lock()
            slots[index] = result
            condition.unlock()
        }
    }

    /// Lets the thread end after the piece it is compiling, waits for it, and hands over the
    /// chunks and modules compiled that were not taken.
    func finish() -> (chunks: [(String, [UInt8])], modules: [(String, CompiledModule)]) {
        condition.lock()
        for index in slots.indices { if case .waiting = slots[index] { slots[index] = .taken } }
        condition.unlock()
        guard !joined else { return ([], []) }
        joined = true
        pthread_join(thread, nil)
        Unmanaged.passUnretained(self).release()
        let chunks = chunkSlots.compactMap { name, index -> (String, [UInt8])? in
            guard case .chunk(let bytes?) = slots[index] else { return nil }
            return (name, Self.copy(bytes))
        }
        let modules = moduleSlots.compactMap { name, index -> (String, CompiledModule)? in
            guard case .module(let module?) = slots[index] else { return nil }
            return (name, CompiledModule(bytecode: Self.copy(module.bytecode), path: Self.copy(module.path), file: module.file))
        }
        slots = Array(repeating: .taken, count: slots.count)   // handed over once
        return (chunks, modules)
    }

    /// The slot's piece once compiled, or `.waiting` when the thread had not started it (it
    /// is the caller's now); either way the slot is taken.
    private func take(_ index: Int) -> Slot {
        condition.lock()
        defer { condition.unlock() }
        while case .compiling = slots[index] { condition.wait() }
        let slot = slots[index]
        slots[index] = .taken
        return slot
    }

    private func compileAll() {
        let compiler = ChunkCompiler()
        while let index = next() {
            let result: Slot = switch pieces[index] {
            case .chunk(let name, let source): .chunk(compiler.compile(source, name: name))
            case .module(let name): .module(compiler.compileModule(name))
            }
            condition.lock()
            slots[index] = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next piece nobody took (`help`: from the last), now the caller's.
    private func next(last: Bool = false) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        let waiting = { (slot: Slot) in if case .waiting = slot { true } else { false } }
        guard let index = last ? slots.lastIndex(where: waiting) : slots.firstIndex(where: waiting) else { return nil }
        slots[index] = .compiling
        return index
    }

    /// New storage with the same bytes (see the type's note).
    private static func copy(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBufferPointer { [UInt8]($0) } }
    private static func copy(_ text: String) -> String { String(decoding: copy(Array(text.utf8)), as: UTF8.self) }
}
