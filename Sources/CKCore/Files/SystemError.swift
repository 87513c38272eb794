#if canImport(Glibc)
import Glibc
#endif

/// What a failed system call's errno means, and what to do about it: the one place a file
/// error is said in words, so the advice fits the cause (a snapshot lost to too many open files
/// was told to free space, atk-safety3 06).
public enum SystemError {
    /// strerror's words, then the remedy when the cause has one.
    public static func text(_ code: Int32) -> String {
        let words = String(cString: strerror(code))
        return remedy(code).map { "\(words): \($0)" } ?? words
    }

    private static func remedy(_ code: Int32) -> String? {
        switch code {
        case EMFILE, ENFILE: "close the files the script leaves open (or raise ulimit -n)"
        case ENOSPC, EDQUOT: "free space on its disk"
        case EACCES, EPERM: "check the permissions of the file and its directory"
        case EROFS: "the file system is read-only: name a writable place"
        default: nil
        }
    }
}
