#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Graphviz's `dot -Tsvg` run on a graph's source, its SVG written to `out` (posix_spawn: full
/// Foundation's `Process` is not linked; see `OutputDescriptor`). The graph goes to dot as a
/// file, not through a pipe: a dot that rejects the graph and exits early cannot kill ckrun by
/// SIGPIPE halfway through the writing (it did, status 141 and no message).
enum GraphvizDot {
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), declared only under _GNU_SOURCE.
    private static let closingFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }

    /// How dot ended: its exit status (128 + N when signal N killed it) and what it wrote to its
    /// standard error (its error or warnings).
    struct Outcome {
        var status: Int32
        var messages: String
    }

    /// Runs dot; throws a POSIXError when it could not be started.
    static func svg(_ graph: String, executable: String, to out: OutputDescriptor) throws -> Outcome {
        guard let input = tmpfile(), let errors = tmpfile() else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { fclose(input); fclose(errors) }
        let source = OutputDescriptor(fileDescriptor: fileno(input), closeOnDealloc: false)
        try source.write(contentsOf: Data(graph.utf8))
        lseek(fileno(input), 0, SEEK_SET)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fileno(input), 0)
        posix_spawn_file_actions_adddup2(&actions, out.fileDescriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, fileno(errors), 2)
        // dot gets its three streams only, not the files the script has open.
        _ = closingFrom?(&actions, 3)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup("-Tsvg"), nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let started = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard started == 0 else { throw POSIXError(.init(rawValue: started) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Outcome(status: code, messages: messages(in: errors))
    }

    /// What dot wrote to its standard error: the first 64 KB (dot's own errors are lines).
    private static func messages(in file: UnsafeMutablePointer<FILE>) -> String {
        let fd = fileno(file)
        lseek(fd, 0, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
