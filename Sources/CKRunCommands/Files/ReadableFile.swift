import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file ckrun loads itself and may load again (`ckrun repl FILE`'s `.reload`, `ckrun tree`, a
/// test file), checked before a turn starts: one it may read that is no directory, FIFO or
/// socket, whose bytes come once (and whose open blocks before any limit runs). A plain
/// script, which lua5.4 reads once, may be a pipe (`LuaMain.loadScript`).
enum ReadableFile {
    /// Why `path` cannot be loaded (a `[cannotRead]` message), or nil.
    static func problem(_ path: String) -> String? {
        guard let st = BytePath.status(path) else {
            return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): \(SystemError.text(errno))")
        }
        if st.st_mode & S_IFMT != S_IFDIR, !BytePath.access(path, R_OK) {
            return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): \(SystemError.text(errno))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): a directory, not a regular file; name a Lua file")
        case S_IFIFO, S_IFSOCK:
            return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): a FIFO or socket, not a regular file: this command "
                + "reads its file again (a reload, --watch, a test file's run), which a pipe gives once; save it to a file "
                + "(a script from a pipe runs as `ckrun FILE` or `ckrun -`)")
        default: return nil   // a device (/dev/null) reads as lua5.4 reads it
        }
    }

    /// Past this a file a sandboxed run loads is refused.
    static let sandboxedLimit = 64 << 20

    /// As `problem(_:)`; under `--sandbox` the file is the checkout's word, so it must be a
    /// regular file of bounded size on no file system of the process or the kernel (a test file
    /// linked to /proc/self/environ printed a secret in its syntax error).
    static func problem(_ path: String, sandboxed: Bool, what: String) -> String? {
        if let problem = problem(path) { return problem }
        return sandboxed ? RegularFile.problem(path, limit: sandboxedLimit, what: what) : nil
    }
}

/// The one way ckrun reads a file on anyone's word: what it reads back for itself
/// (`--shard-timings`' report, the REPL's history, luacov's stats) and what a script or a
/// checkout names (a covered source, which is any chunk name `load` was given; a test file
/// under `--sandbox`). Only a regular file, of bounded size, on no file system of the process
/// or the kernel; under `--sandbox` (`inside`) only one within the project's directory.
/// `/dev/zero` was read until memory ran out, a FIFO no process writes blocked the run past
/// every limit, and a test file linked to /proc/self/environ printed a secret in its syntax
/// error. `check-layout` refuses another reader of a whole file.
enum RegularFile {
    enum Outcome {
        case bytes([UInt8])
        case missing
        /// A `[cannotRead]` message: not a regular file, too large, or unreadable.
        case refused(String)
    }

    /// Whether a file on device `device` is on /proc or /sys (as `BytePath.isKernelFileSystem`):
    /// their "regular files" are the process's memory and environment, and the kernel's state.
    private static func isKernelFileSystem(_ device: dev_t) -> Bool {
        guard let root = BytePath.status("/")?.st_dev else { return false }
        return ["/proc", "/sys"].contains { mount in
            guard let own = BytePath.status(mount)?.st_dev else { return false }
            return own != root && own == device
        }
    }

    /// The file's bytes, if it is a regular file of at most `limit` bytes (and, given `inside`,
    /// resolves within that directory). Opened without waiting (a FIFO would block the open)
    /// and asked through its descriptor, so what is read is what was checked.
    static func read(_ path: String, limit: Int, what: String, inside: String? = nil) -> Outcome {
        let fd: Int32
        switch opened(path, limit: limit, what: what, inside: inside) {
        case .refused(let outcome): return outcome
        case .open(let descriptor): fd = descriptor
        }
        defer { close(fd) }
        // Up to one byte past the limit: a file that grew since fstat is refused too.
        var bytes = [UInt8](repeating: 0, count: min(limit + 1, 1 << 16))
        var count = 0
        while count <= limit {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - count)) }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        guard count <= limit else { return .refused(refusal(path, what, "more than the \(limit) bytes ckrun reads")) }
        return .bytes(Array(bytes.prefix(count)))
    }

    /// Why the file may not be loaded (a `[cannotRead]` message), or nil: for a file a loader
    /// in C reads next (a test file under `--sandbox`).
    static func problem(_ path: String, limit: Int, what: String, inside: String? = nil) -> String? {
        switch opened(path, limit: limit, what: what, inside: inside) {
        case .refused(.refused(let message)): return message
        case .refused: return refusal(path, what, SystemError.text(ENOENT))
        case .open(let fd): close(fd); return nil
        }
    }

    private enum Opened { case open(Int32), refused(Outcome) }

    private static func opened(_ path: String, limit: Int, what: String, inside: String?) -> Opened {
        let fd = BytePath.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            // ENOTDIR: a file where a directory of the path goes, so nothing at the path.
            return .refused(errno == ENOENT || errno == ENOTDIR ? .missing : .refused(refusal(path, what, SystemError.text(errno))))
        }
        var st = stat()
        let why: String? =
            if fstat(fd, &st) != 0 { SystemError.text(errno) }
            else if st.st_mode & S_IFMT != S_IFREG { "not a regular file (a device, FIFO, socket or directory)" }
            else if isKernelFileSystem(st.st_dev) { "a file of the process or the kernel (/proc, /sys)" }
            else if Int(st.st_size) > limit { "\(st.st_size) bytes, more than the \(limit) ckrun reads" }
            else if let inside, !resolves(path, within: inside) { "outside the project's directory \(BytePath.shown(inside)), which --sandbox reads alone" }
            else { nil }
        guard let why else { return .open(fd) }
        close(fd)
        return .refused(.refused(refusal(path, what, why)))
    }

    /// Whether `path`, its links followed, names a file below `directory`.
    static func resolves(_ path: String, within directory: String) -> Bool {
        guard let file = BytePath.realPath(path), let top = BytePath.realPath(directory) else { return false }
        let base = top.hasSuffix("/") ? top : top + "/"
        return file.utf8.count > base.utf8.count && file.utf8.starts(with: base.utf8)
    }

    private static func refusal(_ path: String, _ what: String, _ why: String) -> String {
        Catalogue.cannotRead.message("cannot read \(what) \(BytePath.shown(path)): \(why); name a regular file")
    }
}
