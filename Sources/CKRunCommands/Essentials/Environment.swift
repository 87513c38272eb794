#if canImport(Glibc)
import Glibc
#endif

/// One environment variable, read with getenv: `ProcessInfo.processInfo.environment` builds a
/// dictionary of every variable on each call (1.2M instructions of `ckrun test`'s start, before
/// `--jobs` forks its workers), to look up one or two (scripts/check-layout refuses it).
enum Environment {
    /// The variable's value as `ProcessInfo` decodes it (invalid UTF-8 repaired); nil when unset.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
