import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// Every file ckrun writes on a run's behalf (coverage, JUnit, Bazel's status file) goes through
/// here. A regular file (or a missing path) is replaced: the bytes go to a new file beside it,
/// which takes the old file's permissions and is then renamed over the path, so a failed write
/// leaves the old file whole. A symlink planted at the path (an untrusted checkout's
/// `lcov.info -> ~/notes.txt`) is replaced, never written through (DESIGN.md rule 13). A
/// character device or a FIFO (`--junit /dev/null`, a pipe a reader waits on) is written in
/// place, never replaced: renaming over `/dev/null` would take it from every process on the
/// machine. `check-layout` refuses a rename anywhere else.
enum ReplacingFile {
    /// Why a write failed, and what to do where the writer lets the user name the file (a
    /// writer of fixed names, coverage's, gives its own advice).
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var advice: String? = nil
        init(description: String) { reason = description }
        init(_ reason: String, advice: String) { (self.reason, self.advice) = (reason, advice) }
        var description: String { advice.map { reason + "; " + $0 } ?? reason }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        var st = stat()
        guard BytePath.withCString(path, { lstat($0, &st) }) == 0 else { return try replace(path, with: bytes, mode: nil) }
        switch st.st_mode & S_IFMT {
        case S_IFREG where isSource(path):
            throw Failure("\(BytePath.shown(path)) is a Lua source or a .busted file, never a report: it is left as it is", advice: "name the report's own file (report.xml)")
        case S_IFREG: try replace(path, with: bytes, mode: st.st_mode & 0o777)
        case S_IFLNK: try replace(path, with: bytes, mode: nil)
        case S_IFCHR, S_IFIFO: try writeInPlace(path, bytes, isFIFO: st.st_mode & S_IFMT == S_IFIFO)
        case S_IFDIR: throw Failure("\(BytePath.shown(path)) is a directory", advice: "name a file to write")
        default: throw Failure("\(BytePath.shown(path)) is a block device or a socket, not a file ckrun may write", advice: "name a regular file")
        }
    }

    static func write(_ text: String, to path: String) throws(Failure) { try write(Array(text.utf8), to: path) }

    /// A file no report is written over, should an option's value name it (`--junit
    /// spec/calc_spec.lua` read as a flag then the spec: the spec was replaced by the report).
    static func isSource(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.lowercased().hasSuffix(".lua") || name == ".busted"
    }

    /// A new file beside `path`, renamed over it; `mode` is the replaced file's permissions.
    private static func replace(_ path: String, with bytes: [UInt8], mode: mode_t?) throws(Failure) {
        let temporary = path + ".ckrun-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // O_EXCL | O_NOFOLLOW: the temporary name is new, never an existing file or link.
        let fd = BytePath.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create a file in \(BytePath.shown(directory(of: path)))") }
        if let mode { _ = fchmod(fd, mode) }
        // Synced before the rename: a crash or a full disk never leaves a short file at the path.
        let written = writeAll(bytes, to: fd) && fsync(fd) == 0
        guard written, close(fd) == 0, BytePath.withCString(temporary, { t in BytePath.withCString(path) { rename(t, $0) } }) == 0 else {
            let error = failure("cannot write \(BytePath.shown(path))")
            if written == false { close(fd) }
            _ = BytePath.withCString(temporary) { unlink($0) }
            throw error
        }
    }

    /// A device or FIFO, opened without creating anything. The open does not wait: a FIFO no
    /// process reads would block ckrun before any limit runs, so it is an error saying so.
    private static func writeInPlace(_ path: String, _ bytes: [UInt8], isFIFO: Bool) throws(Failure) {
        let fd = BytePath.open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if isFIFO && errno == ENXIO {
                throw Failure("no process reads the FIFO \(BytePath.shown(path))", advice: "start its reader first, or name a regular file")
            }
            throw failure("cannot open \(BytePath.shown(path))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)   // a reader is there: wait for it
        guard writeAll(bytes, to: fd) else {
            let error = failure("cannot write \(BytePath.shown(path))")
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw failure("cannot write \(BytePath.shown(path))") }
    }

    /// Whether every byte reached `fd` (errno says why not).
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            written += n
        }
        return true
    }

    /// The directory a path's file is in, as the path names it ("." for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(SystemError.text(errno))")
    }
}
