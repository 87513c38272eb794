#if canImport(Glibc)
import Glibc
#endif

/// Every file ckrun writes on a run's behalf (coverage, JUnit, Bazel's status file) replaces what
/// is at its path: the bytes go to a new file beside it, which is then renamed over the path. A
/// symlink planted at the path (an untrusted checkout's `lcov.info -> ~/notes.txt`) is replaced,
/// never written through, and a failed write leaves the old file whole.
enum ReplacingFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = path + ".ckrun-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // O_EXCL | O_NOFOLLOW: the temporary name is new, never an existing file or link.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(fd); unlink(temporary); throw failure("cannot write \(path)") }
            written += n
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let error = failure("cannot write \(path)")
            unlink(temporary)
            throw error
        }
    }

    static func write(_ text: String, to path: String) throws(Failure) { try write(Array(text.utf8), to: path) }

    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
