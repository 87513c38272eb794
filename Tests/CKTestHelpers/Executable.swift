import Foundation

/// The result of running the built `ckrun` the way a user would.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Locates and runs the `ckrun` executable built beside the test bundle.
public enum Ckrun {
    /// `.build/<config>/ckrun`: the test binary lives in the same folder.
    public static var executableURL: URL {
        if let override = ProcessInfo.processInfo.environment["CKRUN_EXECUTABLE"] {
            return URL(fileURLWithPath: override)
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = me.deletingLastPathComponent()
        // macOS-style bundles nest the binary deeper; walk up to the build folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("ckrun").path),
              folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("ckrun")
    }

    /// The repository's root, for example files.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `ckrun` with arguments, optional standard input, in `directory`.
    @discardableResult
    public static func run(_ arguments: [String], stdin: String? = nil, directory: URL? = nil,
                           environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> ProcessResult {
        try runProcess(executableURL, arguments, stdin: stdin, directory: directory, environment: environment, timeout: timeout)
    }

    /// Runs any executable and collects its output; kills it after `timeout` seconds.
    public static func runProcess(_ executable: URL, _ arguments: [String], stdin: String? = nil, directory: URL? = nil,
                                  environment: [String: String] = [:], timeout: TimeInterval = 60,
                                  captureOutput: Bool = true) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardInput = input
        guard captureOutput else {
            // A daemon (tmux's server) keeps Foundation's Process from ever seeing its client exit:
            // spawn and wait directly, with the standard streams on /dev/null.
            return ProcessResult(status: try spawnAndWait(executable.path, arguments), stdout: "", stderr: "")
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // A child may end before it reads its input (the release build starts in ~1.9M instructions):
        // the write then fails with EPIPE instead of SIGPIPE ending this test process. A handler
        // that does nothing, not SIG_IGN: children started later must get SIGPIPE's default back
        // at exec, as from a shell (an ignored SIGPIPE is inherited, and ckrun honours it as lua5.4 does).
        signal(SIGPIPE, { _ in })
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            // SIGKILL: a child spawned from a Dispatch thread inherits its mask, SIGTERM blocked.
            kill(process.processIdentifier, SIGKILL)
            group.wait()
        }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which <spawn.h> declares only
/// under _GNU_SOURCE, so Swift's Glibc module does not show it.
private let closingFrom3 = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}

/// posix_spawn with /dev/null for stdin, stdout and stderr and no other descriptor, then waitpid.
private func spawnAndWait(_ path: String, _ arguments: [String]) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    // Nothing else: a daemon (tmux's server) would hold a file another test is writing at this
    // moment, and its close when the daemon ends reads as an edit to that test's --watch.
    _ = closingFrom3?(&actions, 3)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // The child starts with no blocked signals and default handlers, as from a shell.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard rc == 0 else { throw NSError(domain: "spawn", code: Int(rc)) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return (status >> 8) & 0xff
}

/// A temporary folder that removes itself.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ckrun-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes a file (creating folders) and returns its URL.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// `ckrun` started with `input` on its standard input (closed once written), for a test that
/// signals it while it runs (Ctrl-C's SIGINT); `finish()` waits for it and collects its output.
public final class RunningCkrun {
    public let process = Process()
    private let output = Pipe(), errors = Pipe()

    public init(_ arguments: [String], input: String) throws {
        let stdin = Pipe()
        process.executableURL = Ckrun.executableURL
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }

    /// Waits for the exit: whether it exited (not killed by a signal) with status 0, and its output.
    public func finish() -> (exitedCleanly: Bool, stdout: String, stderr: String) {
        process.waitUntilExit()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationReason == .exit && process.terminationStatus == 0, out, err)
    }
}
