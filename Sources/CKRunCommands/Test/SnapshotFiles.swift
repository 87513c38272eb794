import CKCore
import CKLua
#if canImport(Glibc)
import Glibc
#endif

/// The runner's reads and writes of a test file's `__snapshots__/<file>.snap`, handed to
/// assert.lua as `T.snapshot_*`: Swift, not the state's io library, so under `--sandbox` the
/// runner records snapshots (the test still may not write a file). A path is resolved from the
/// directory the run started in: a test's `lfs.chdir` does not move its snapshots. A rewrite
/// holds an flock on the snapshot directory while it re-reads the file and merges its own
/// entries in (two runs at once on one checkout lose none), and goes through `ReplacingFile`
/// (a checked, synced temporary renamed over the file: a full disk leaves the old file whole).
final class SnapshotFiles {
    /// Past this a `.snap` file is refused rather than read.
    static let sizeLimit = 64 << 20
    /// How long a rewrite waits for another run's to finish.
    static let lockWaitSeconds = 30.0
    private let start: String
    /// Under `--sandbox`: the project's directory, outside which nothing is read or written.
    private let inside: String?
    private var locked: Int32 = -1

    init(sandbox: Bool) {
        start = BytePath.currentDirectory()
        inside = sandbox ? start : nil
    }

    deinit { unlock() }

    /// The fields of `T` (names without `snapshot_`): `read`, `lock`, `replace`, `unlock`.
    /// The closures hold the engine unowned: the state holds them, and a strong reference would
    /// keep the engine, and so the state, from ever closing (its finalizers never ran).
    func fields(_ engine: Engine) -> [(String, Value)] {
        let tools = engine.tools
        return [
            // (path) -> the file's bytes, or nil when there is none; a refusal raises [cannotRead].
            ("snapshot_read", tools.function { [self, unowned(unsafe) engine] arguments throws(LuaError) in
                let tools = engine.tools
                let shown = Self.path(arguments, tools), resolved = resolve(shown)
                switch RegularFile.read(resolved, limit: Self.sizeLimit, what: "the snapshot file", inside: inside) {
                case .missing: return [.nil]
                case .bytes(let bytes): return [tools.string(bytes: bytes)]
                case .refused(let message): throw LuaError(message: Self.shown(message, resolved, as: shown))
                }
            }),
            // (directory) -> true, or nil and why: the directory made and locked.
            ("snapshot_lock", tools.function { [self, unowned(unsafe) engine] arguments throws(LuaError) in
                let tools = engine.tools
                if let why = lock(Self.path(arguments, tools)) { return [.nil, .string(why)] }
                return [.bool(true)]
            }),
            // (path, bytes) -> true, or nil and why.
            ("snapshot_replace", tools.function { [self, unowned(unsafe) engine] arguments throws(LuaError) in
                let tools = engine.tools
                let bytes = arguments.count > 1 ? tools.carriedText(arguments[1]).map(ByteText.bytes(of:)) ?? [] : []
                let shown = Self.path(arguments, tools), resolved = resolve(shown)
                // Only a `.snap` in a directory of the project (under --sandbox): `--runner-internals`
                // hands this table to tests, and the sandbox's promise is that they write nothing else.
                let directory = String(resolved[..<(resolved.lastIndex(of: "/") ?? resolved.startIndex)])
                guard shown.hasSuffix(".snap"), inside.map({ RegularFile.resolves(directory + "/.", within: $0) }) ?? true else {
                    return [.nil, .string("\(BytePath.shown(shown)) is no snapshot file of the project")]
                }
                do throws(ReplacingFile.Failure) { try ReplacingFile.write(bytes, to: resolved) } catch {
                    let said = error.description, prefix = "cannot write \(BytePath.shown(resolved)): "
                    return [.nil, .string(said.hasPrefix(prefix) ? String(said.dropFirst(prefix.count)) : Self.shown(said, resolved, as: shown))]
                }
                return [.bool(true)]
            }),
            ("snapshot_unlock", tools.function { [self] _ throws(LuaError) in unlock(); return [] }),
        ]
    }

    private static func path(_ arguments: [Value], _ tools: ToolCalls) -> String {
        arguments.first.flatMap(tools.carriedText) ?? ""
    }

    private func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : (start.hasSuffix("/") ? start : start + "/") + path
    }

    /// A message about the resolved path, naming the path as the test file's run named it.
    private static func shown(_ message: String, _ resolved: String, as shown: String) -> String {
        resolved == shown ? message : message.replacing(BytePath.shown(resolved), with: BytePath.shown(shown))
    }

    /// Makes `directory` and takes its lock; nil, or why not.
    private func lock(_ directory: String) -> String? {
        unlock()
        let resolved = resolve(directory)
        if let why = BytePath.makeParentDirectories(of: resolved + "/.") { return Self.shown(why, resolved, as: directory) }
        if let inside, !RegularFile.resolves(resolved + "/.", within: inside) {
            return "\(BytePath.shown(directory)) is outside the project's directory, where --sandbox writes nothing"
        }
        let fd = BytePath.open(resolved, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return "cannot open \(BytePath.shown(directory)): \(SystemError.text(errno))" }
        let deadline = MonotonicInstant.now().uptimeNanoseconds + UInt64(Self.lockWaitSeconds * 1e9)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, MonotonicInstant.now().uptimeNanoseconds < deadline else {
                let why = errno == EWOULDBLOCK ? "another run held its lock for \(Int(Self.lockWaitSeconds)) s" : SystemError.text(errno)
                close(fd)
                return "cannot lock \(BytePath.shown(directory)): \(why)"
            }
            usleep(10_000)
        }
        locked = fd
        return nil
    }

    private func unlock() {
        guard locked >= 0 else { return }
        close(locked)   // closing the descriptor releases the flock
        locked = -1
    }
}
