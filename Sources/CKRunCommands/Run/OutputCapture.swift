import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What a turn nobody typed (a timer, a reload after a file change) writes while a line is being
/// edited: standard output and error go to a temporary file for the turn and come back as bytes,
/// which the terminal prints above the line being typed. Standard error is taken along only when
/// it goes where standard output goes (the same terminal): elsewhere (`2>err.txt`) it cannot
/// garble the line, and an error stays on standard error.
final class OutputCapture {
    private let file: UnsafeMutablePointer<FILE>?
    /// The real descriptors 1 and 2 while a capture runs (else -1).
    nonisolated(unsafe) private static var saved: (Int32, Int32) = (-1, -1)
    nonisolated(unsafe) private static var capturing: UnsafeMutablePointer<FILE>?

    init() {
        file = tmpfile()
        // A turn that ends the process (os.exit in a timer) gets its output shown after all.
        _ = Self.registerOnce
    }

    private static let registerOnce: Void = { atexit { OutputCapture.release() } }()

    /// At exit, mid-capture: the real descriptors back, and what was captured written to them.
    private static func release() {
        guard let file = capturing, saved.0 >= 0 else { return }
        fflush(stdout)
        fflush(stderr)
        dup2(saved.0, 1)
        dup2(saved.1, 2)
        let bytes = readBack(fileno(file))
        bytes.withUnsafeBytes { ProcessOutput.write($0, to: .output) }
        capturing = nil
    }

    deinit { if let file { fclose(file) } }

    /// Runs `body` with descriptors 1 and 2 on the file; returns what was written.
    func capture(_ body: () -> Void) -> [UInt8] {
        guard let file else {
            body()
            return []
        }
        let fd = fileno(file)
        fflush(stdout)
        fflush(stderr)
        let saved = (dup(1), dup(2))
        _ = ftruncate(fd, 0)
        _ = lseek(fd, 0, SEEK_SET)
        dup2(fd, 1)
        if Self.sameFile(saved.0, saved.1) { dup2(fd, 2) }
        (Self.saved, Self.capturing) = (saved, file)
        body()
        (Self.saved, Self.capturing) = ((-1, -1), nil)
        fflush(stdout)
        fflush(stderr)
        dup2(saved.0, 1)
        dup2(saved.1, 2)
        close(saved.0)
        close(saved.1)
        return Self.readBack(fd)
    }

    /// Whether two descriptors write to one file (a terminal's device, a file's inode).
    private static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        var x = stat(), y = stat()
        guard fstat(a, &x) == 0, fstat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    private static func readBack(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        _ = lseek(fd, 0, SEEK_SET)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            out += chunk[..<n]
        }
        return out
    }
}
