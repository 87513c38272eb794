import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A `--jobs` worker, forked or started with posix_spawn, in a process group of its own (a test's
/// `kill 0` ends only it): its standard input (requests), its standard output (what its tests
/// write) and its descriptor 3 (`WorkerProtocol.answers`: results) are pipes to the parent, its
/// standard error is the parent's. Foundation's Process rebuilds the environment
/// dictionary and adds a close action for every possible descriptor on each start: 53 million
/// instructions a worker (callgrind, 1,024 descriptors), on the run's critical path.
final class WorkerProcess: @unchecked Sendable {
    let pid: pid_t
    /// The worker's standard input (requests).
    let requests: OutputDescriptor
    /// The worker's standard output (what its tests and their processes write), non-blocking.
    let output: Int32
    /// Its answers (results): close-on-exec in the worker, so only the worker holds it.
    let answers: Int32
    private let lock = Lock()
    private var waitStatus: Int32?

    /// Pipes are made close-on-exec and workers spawned under one lock: no worker inherits
    /// another's pipe ends (the parent's close would not end that worker's input).
    private static let spawning = Lock()

    private static func cloexecPipe() throws -> [Int32] {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    /// The worker's standard input and output and its answers, each a pipe; [0] reads, [1] writes.
    private struct Pipes {
        let input: [Int32], output: [Int32], answers: [Int32]

        init() throws {
            var made: [[Int32]] = []
            do {
                for _ in 0..<3 { made.append(try WorkerProcess.cloexecPipe()) }
            } catch {
                for ends in made { close(ends[0]); close(ends[1]) }
                throw error
            }
            (input, output, answers) = (made[0], made[1], made[2])
        }

        /// Once the child has its ends (or failed to start: `error`, an errno): this process's
        /// ends, the requests it writes, the output and the answers it reads.
        func parentEnds(error: Int32?) throws -> (requests: OutputDescriptor, output: Int32, answers: Int32) {
            close(input[0]); close(output[1]); close(answers[1])
            if let error {
                close(input[1]); close(output[0]); close(answers[0])
                throw POSIXError(.init(rawValue: error) ?? .EIO)
            }
            _ = fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK)
            return (OutputDescriptor(fileDescriptor: input[1], closeOnDealloc: true), output[0], answers[0])
        }
    }

    init(executable: String, arguments: [String]) throws {
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        let pipes = try Pipes()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes.input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes.output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes.answers[1], WorkerProtocol.answers)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread's mask and handlers are not the worker's: none blocked, all default.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { ByteText.cString($0) } + [nil]   // the bytes typed
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        (requests, output, answers) = try pipes.parentEnds(error: status == 0 ? nil : status)
        pid = child
    }

    /// A worker forked from this process instead of started from the executable: no program to
    /// load, no command line to parse, and the bytecode of luassert and the preludes compiled
    /// (`ParallelRunner.forkWorkers`). Only a single-threaded process
    /// may fork (`ProcessThreads`). The child is what `--worker` runs: requests on standard
    /// input, results on standard output.
    init(forking settings: TestRunSettings) throws {
        let pipes = try Pipes()
        fflush(nil)   // nothing this process buffered may be written again by the child
        let parent = getpid()
        let child = fork()
        if child == 0 {
            setpgid(0, 0)
            dup2(pipes.input[0], 0)
            dup2(pipes.output[1], 1)
            dup2(pipes.answers[1], WorkerProtocol.answers)
            // No other worker's pipe ends (its input would never end), and a spawned worker's signals.
            Self.closeDescriptors(from: WorkerProtocol.answers + 1)
            for signal in 1..<Int32(32) where signal != SIGKILL && signal != SIGSTOP { Glibc.signal(signal, SIG_DFL) }
            var none = sigset_t()
            sigemptyset(&none)
            sigprocmask(SIG_SETMASK, &none, nil)
            Engine.processForked()
            WorkerLoop.serve(settings: settings, parent: parent)
            fflush(nil)
            _exit(0)
        }
        if child > 0 { setpgid(child, child) }   // as the child does: whichever runs first
        (requests, output, answers) = try pipes.parentEnds(error: child > 0 ? nil : errno)
        pid = child
    }

    /// Closes every open descriptor from `lowest` up (those /proc/self/fd lists).
    private static func closeDescriptors(from lowest: Int32) {
        guard let directory = opendir("/proc/self/fd") else { return }
        var open: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd >= lowest, fd != dirfd(directory) { open.append(fd) }
        }
        closedir(directory)
        for fd in open { close(fd) }
    }

    deinit { close(output); close(answers) }

    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if waitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { waitStatus = status }
        return waitStatus == nil
    }

    func terminate() { if isRunning { kill(pid, SIGTERM) } }

    /// How many checks in a row found the worker stopped (SIGSTOP: a test ran `kill -STOP $PPID`).
    private var stoppedChecks = 0
    /// Killed by `mayStillAnswer` because it was stopped.
    private(set) var wasStopped = false

    /// Running, and not found stopped on two checks in a row (a Ctrl-Z stops and continues the
    /// parent too): a worker that is stopped never answers, so it is killed and its file fails.
    func mayStillAnswer() -> Bool {
        guard isRunning else { return false }
        stoppedChecks = isStopped ? stoppedChecks + 1 : 0
        guard stoppedChecks >= 2 else { return true }
        wasStopped = true
        kill(pid, SIGKILL)
        return false
    }

    private var isStopped: Bool { ProcessState.isStopped(pid) }

    func waitUntilExit() {
        lock.lock()
        defer { lock.unlock() }
        guard waitStatus == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        waitStatus = status
    }

    /// Exited with status 0 (after `waitUntilExit`).
    var exitedCleanly: Bool { waitStatus.map(WaitStatus.exitedCleanly) ?? false }

    /// How it ended, for reports: "was killed by signal 9", "ended with status 1".
    var ending: String {
        guard let status = waitStatus else { return "ended" }
        if wasStopped { return "was stopped by a signal (so killed: it would never answer)" }
        if status & 0x7f == 0 { return "ended with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(status & 0x7f)"
    }
}

/// The number of threads this process runs (from /proc; 0 when it cannot tell): the entries of
/// /proc/self/task, counted without reading /proc/self/status into a String (1.5M instructions,
/// twice on `--jobs`'s serial path).
enum ProcessThreads {
    static var count: Int {
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var threads = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { threads += 1 }   // not "." or ".."
        }
        return threads
    }
}
