import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `--jobs` worker started with posix_spawn: its standard input and output are pipes to the
/// parent, its standard error is the parent's. Foundation's Process rebuilds the environment
/// dictionary and adds a close action for every possible descriptor on each start: 53 million
/// instructions a worker (callgrind, 1,024 descriptors), on the run's critical path.
final class WorkerProcess: @unchecked Sendable {
    let pid: pid_t
    /// The worker's standard input (requests).
    let requests: FileHandle
    /// The worker's standard output (results and what tests print).
    let output: Int32
    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Pipes are made close-on-exec and workers spawned under one lock: no worker inherits
    /// another's pipe ends (the parent's close would not end that worker's input).
    private static let spawning = NSLock()

    private static func cloexecPipe() throws -> [Int32] {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    init(executable: String, arguments: [String]) throws {
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        let input = try Self.cloexecPipe()
        let outputPipe: [Int32]
        do { outputPipe = try Self.cloexecPipe() } catch {
            close(input[0]); close(input[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread's mask and handlers are not the worker's: none blocked, all default.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(input[0])
        close(outputPipe[1])
        guard status == 0 else {
            close(input[1]); close(outputPipe[0])
            throw POSIXError(.init(rawValue: status) ?? .EIO)
        }
        pid = child
        requests = FileHandle(fileDescriptor: input[1], closeOnDealloc: true)
        output = outputPipe[0]
    }

    deinit { close(output) }

    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if waitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { waitStatus = status }
        return waitStatus == nil
    }

    func terminate() { if isRunning { kill(pid, SIGTERM) } }

    func waitUntilExit() {
        lock.lock()
        defer { lock.unlock() }
        guard waitStatus == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        waitStatus = status
    }

    /// Exited with status 0 (after `waitUntilExit`).
    var exitedCleanly: Bool { waitStatus.map { $0 & 0x7f == 0 && ($0 >> 8) & 0xff == 0 } ?? false }

    /// How it ended, for reports: "was killed by signal 9", "ended with status 1".
    var ending: String {
        guard let status = waitStatus else { return "ended" }
        if status & 0x7f == 0 { return "ended with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(status & 0x7f)"
    }
}
