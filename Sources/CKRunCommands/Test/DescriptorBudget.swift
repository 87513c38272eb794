import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// How many `--jobs` workers the runner's file descriptors allow (`ulimit -n`): each holds
/// three pipe ends here (requests, output, answers) and the one being started three more.
/// Fewer workers (or none: a serial run) with a note, rather than files failing with "could not
/// start a worker".
enum DescriptorBudget {
    /// Kept free for the runner's own files (a spec file read, a report written).
    static let reserve = 4

    static func workers(_ wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
              let open = openDescriptors else { return wanted }
        let free = Int(clamping: limit.rlim_cur) - open
        let allowed = max(1, (free - 3 - reserve) / 3)
        guard allowed < wanted else { return wanted }
        let how = allowed > 1 ? "running \(allowed) workers" : "running the files in this process"
        ProcessOutput.err(ProgramName.prefixed("--jobs \(wanted): \(free) file descriptors free (ulimit -n \(limit.rlim_cur)): \(how)") + "\n")
        return allowed
    }

    /// Open descriptors (those /proc/self/fd lists, less the one listing them).
    private static var openDescriptors: Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = -1
        while readdir(directory) != nil { count += 1 }
        return count - 2   // "." and ".."
    }
}
