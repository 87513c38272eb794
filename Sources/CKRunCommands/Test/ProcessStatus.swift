#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What `waitpid` reports, read as its macros read it.
enum WaitStatus {
    static func exitedCleanly(_ status: Int32) -> Bool { status & 0x7f == 0 && (status >> 8) & 0xff == 0 }
}

/// A process's state as the kernel reports it.
enum ProcessState {
    /// The state in /proc is "T" (stopped by a signal).
    static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")") else { return false }
        return stat[nameEnd...].dropFirst(2).first == "T"
    }
}
