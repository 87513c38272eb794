import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// Why `--watch` cannot watch, from the errno of the inotify call that failed: one sentence for
/// `ckrun test --watch` and the app runner's `--watch`.
enum WatchRefusal {
    static func message(_ code: Int32, watching what: String) -> String {
        let cause: String
        switch code {
        case EMFILE: cause = "the per-user limit of inotify instances is reached; close other programs that watch files, or raise it (sysctl fs.inotify.max_user_instances=512)"
        case ENOSPC: cause = "the per-user limit of inotify watches is reached; close other programs that watch files, or raise it (sysctl fs.inotify.max_user_watches=524288)"
        case ENOSYS: cause = "this system has no inotify"
        case ENOENT, ENOTDIR: cause = "it is gone"
        case EACCES: cause = "permission denied"
        default: cause = SystemError.text(code)
        }
        return Catalogue.cannotWatch.message("--watch cannot watch \(what): \(cause)")
    }
}
