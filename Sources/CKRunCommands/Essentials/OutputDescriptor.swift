#if canImport(Glibc)
import Glibc
#endif
import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file descriptor ckrun writes to, in place of Foundation's `FileHandle`, which only the full
/// Foundation has: linking it (and ICU, CoreFoundation) cost every start-up ~0.4M instructions of
/// relocations and initialisers. Never a trap (`FileHandle.write` traps): a descriptor standing
/// for standard output or error fails as `ProcessOutput` says; a pipe's failure is the caller's.
final class OutputDescriptor: @unchecked Sendable {
    let fileDescriptor: Int32
    private let closeOnDealloc: Bool
    private var closed = false
    /// The standard stream this descriptor is (or is a copy of, for a report).
    private let stream: ProcessOutput.Stream?

    static let standardOutput = OutputDescriptor(fileDescriptor: 1, closeOnDealloc: false, stream: .output)

    init(fileDescriptor: Int32, closeOnDealloc: Bool, stream: ProcessOutput.Stream? = nil) {
        self.fileDescriptor = fileDescriptor
        self.closeOnDealloc = closeOnDealloc
        self.stream = stream
    }

    deinit { if closeOnDealloc && !closed { _ = Glibc.close(fileDescriptor) } }

    /// Writes all of `bytes` (short writes continued, EINTR retried); the errno that stopped it, or nil.
    @discardableResult
    func write(bytes: UnsafeRawBufferPointer) -> Int32? { ProcessOutput.writeAll(fileDescriptor, bytes) }

    /// Writes all of `bytes`: a standard stream's failure goes to `ProcessOutput`, a pipe's is dropped.
    func write(_ bytes: UnsafeRawBufferPointer) {
        if let stream { ProcessOutput.write(bytes, to: stream, descriptor: fileDescriptor) } else { _ = write(bytes: bytes) }
    }

    func write(_ data: Data) { data.withUnsafeBytes { write($0) } }

    func write(_ text: String) { var text = text; text.withUTF8 { write(UnsafeRawBufferPointer($0)) } }

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
