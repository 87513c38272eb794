import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file ckrun loads itself, checked before a turn starts: one it may read that is no directory,
/// FIFO or socket. Opening a FIFO blocks before any limit runs (`ckrun --timeout 2 pipe.lua` never
/// returned), so it is refused with `[cannotRead]`, as `ckpcall_loadfile` refuses it.
enum ReadableFile {
    /// Why `path` cannot be loaded (a `[cannotRead]` message), or nil.
    static func problem(_ path: String) -> String? {
        guard let st = BytePath.status(path) else {
            return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): \(String(cString: strerror(errno)))")
        }
        if st.st_mode & S_IFMT != S_IFDIR, !BytePath.access(path, R_OK) {
            return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): \(String(cString: strerror(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): a directory, not a regular file; name a Lua file")
        case S_IFIFO, S_IFSOCK: return Catalogue.cannotRead.message("cannot read \(BytePath.shown(path)): a FIFO or socket, not a regular file; name a Lua file")
        default: return nil   // a device (/dev/null) reads as lua5.4 reads it
        }
    }
}

/// A file ckrun reads back for itself (`--shard-timings`' report, the REPL's history): only a
/// regular file, of bounded size. `/dev/zero` there was read until memory ran out, and a FIFO no
/// process writes blocked start-up before any limit ran.
enum RegularFile {
    enum Outcome {
        case bytes([UInt8])
        case missing
        /// A `[cannotRead]` message: not a regular file, too large, or unreadable.
        case refused(String)
    }

    /// The file's bytes, if it is a regular file of at most `limit` bytes. Opened without
    /// waiting (a FIFO would block the open) and asked through its descriptor, so what is read
    /// is what was checked.
    static func read(_ path: String, limit: Int, what: String) -> Outcome {
        let fd = BytePath.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            return errno == ENOENT ? .missing : .refused(refusal(path, what, String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            return .refused(refusal(path, what, "not a regular file (a device, FIFO, socket or directory)"))
        }
        guard Int(st.st_size) <= limit else {
            return .refused(refusal(path, what, "\(st.st_size) bytes, more than the \(limit) ckrun reads"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }   // the file shrank: what is there
            count += n
        }
        return .bytes(Array(bytes.prefix(count)))
    }

    private static func refusal(_ path: String, _ what: String, _ why: String) -> String {
        Catalogue.cannotRead.message("cannot read \(what) \(BytePath.shown(path)): \(why); name a regular file")
    }
}
