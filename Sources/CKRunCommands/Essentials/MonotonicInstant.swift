import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// A reading of the monotonic clock, in place of Dispatch's `DispatchTime` (whose module came
/// with full Foundation; see `OutputDescriptor`).
struct MonotonicInstant {
    let uptimeNanoseconds: UInt64

    static func now() -> MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(uptimeNanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }
}

/// Whether `path` exists (symbolic links followed) and whether it is a directory, as
/// `FileManager.fileExists(atPath:isDirectory:)` said, without its platform's `ObjCBool`.
func pathKind(_ path: String) -> (exists: Bool, isDirectory: Bool) {
    guard let st = BytePath.status(path) else { return (false, false) }
    return (true, st.st_mode & S_IFMT == S_IFDIR)
}
