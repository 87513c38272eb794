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
        var st = stat()
        guard stat(path, &st) == 0 else {
            return Catalogue.cannotRead.message("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if st.st_mode & S_IFMT != S_IFDIR, access(path, R_OK) != 0 {
            return Catalogue.cannotRead.message("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return Catalogue.cannotRead.message("cannot read \(path): a directory, not a regular file; name a Lua file")
        case S_IFIFO, S_IFSOCK: return Catalogue.cannotRead.message("cannot read \(path): a FIFO or socket, not a regular file; name a Lua file")
        default: return nil   // a device (/dev/null) reads as lua5.4 reads it
        }
    }
}
