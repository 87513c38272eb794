import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// The records a read of an inotify descriptor returns: a header, then the name padded with
/// NULs. Both watchers (`FileWatcher` for apps, `DirectoryWatches` for `ckrun test --watch`) read them so.
enum InotifyRecords {
    /// Calls `body` with each record's watch descriptor, mask and name ("" for the watched
    /// directory itself, a name as its bytes: `BytePath`) among the first `count` bytes.
    static func forEach(in bytes: UnsafeRawBufferPointer, count: Int, _ body: (_ wd: Int32, _ mask: UInt32, _ name: String) -> Void) {
        let header = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + header <= count {
            let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let start = offset + header
            let name = ByteText.text(bytes[start..<min(count, start + Int(event.len))].prefix { $0 != 0 })
            body(event.wd, event.mask, name)
            offset = start + Int(event.len)
        }
    }
}
