#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file descriptor ckrun writes to, in place of Foundation's `FileHandle`, which only the full
/// Foundation has: linking it (and ICU, CoreFoundation) cost every start-up ~0.4M instructions of
/// relocations and initialisers. A failed write is dropped, never a trap (`FileHandle.write` traps).
final class OutputDescriptor: @unchecked Sendable {
    let fileDescriptor: Int32
    private let closeOnDealloc: Bool
    private var closed = false

    static let standardOutput = OutputDescriptor(fileDescriptor: 1, closeOnDealloc: false)
    static let standardError = OutputDescriptor(fileDescriptor: 2, closeOnDealloc: false)

    init(fileDescriptor: Int32, closeOnDealloc: Bool) {
        self.fileDescriptor = fileDescriptor
        self.closeOnDealloc = closeOnDealloc
    }

    deinit { if closeOnDealloc && !closed { _ = Glibc.close(fileDescriptor) } }

    /// Writes all of `bytes` (short writes continued, EINTR retried); the errno that stopped it, or nil.
    @discardableResult
    func write(bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n < 0 ? errno : EIO }
            offset += n
        }
        return nil
    }

    func write(_ data: Data) { data.withUnsafeBytes { _ = write(bytes: $0) } }

    func write(_ text: String) { var text = text; text.withUTF8 { _ = write(bytes: UnsafeRawBufferPointer($0)) } }

    /// As `write(_:)`, but a failure (EPIPE from a worker that died) is thrown.
    func write(contentsOf data: Data) throws {
        if let error = data.withUnsafeBytes({ write(bytes: $0) }) { throw POSIXError(.init(rawValue: error) ?? .EIO) }
    }

    func close() throws {
        guard !closed else { return }
        closed = true
        if Glibc.close(fileDescriptor) != 0 { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }
}
