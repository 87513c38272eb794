#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Graphviz's `dot -Tsvg` run on a graph's source, its SVG written to `out` (posix_spawn: full
/// Foundation's `Process` is not linked; see `OutputDescriptor`).
enum GraphvizDot {
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), declared only under _GNU_SOURCE.
    private static let closingFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }

    /// dot's exit status; throws a POSIXError when dot could not be started.
    static func svg(_ graph: String, executable: String, to out: OutputDescriptor) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_adddup2(&actions, out.fileDescriptor, 1)
        // dot gets its two streams and stderr only, not the files the script has open.
        _ = closingFrom?(&actions, 3)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup("-Tsvg"), nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let started = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(ends[0])
        let input = OutputDescriptor(fileDescriptor: ends[1], closeOnDealloc: true)
        guard started == 0 else { throw POSIXError(.init(rawValue: started) ?? .EIO) }
        input.write(Data(graph.utf8))
        try? input.close()
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
