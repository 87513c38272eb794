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

    /// Why `--watch` refuses `script` when it is a pipe, FIFO or device (`ckrun <(…) --watch`):
    /// its bytes come once, and a reload must read the file again. Nil for a file.
    static func stream(_ script: String) -> String? {
        guard let st = BytePath.status(script) else { return nil }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK else { return nil }
        return Catalogue.cannotWatch.message("--watch cannot watch \(BytePath.shown(script)): a pipe or device gives its bytes once, "
            + "and a reload reads the script again; save the script to a file, or run it without --watch")
    }
}
