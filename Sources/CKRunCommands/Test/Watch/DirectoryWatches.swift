import CKCore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's file events (inotify) for a set of directories, some with their whole trees.
/// Nothing polls: a wait blocks in the kernel until something changes. Directories are given
/// as `ProjectPaths` resolve them, so an event's path compares with a loaded file's.
final class DirectoryWatches {
    struct Event {
        let path: String
        let isDirectory: Bool
        /// Made here (IN_CREATE): a file made and gone within one batch was an editor's scratch file.
        let created: Bool
    }

    /// What one wait brought: file events, and whether the kernel's queue overflowed (events lost).
    struct Burst {
        var events: [Event] = []
        var overflowed = false
        /// The other descriptor `next` was given (`--watch`'s keys) can be read.
        var keyReady = false
        var isEmpty: Bool { events.isEmpty && !overflowed }
    }

    private static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR)
    private let fd: Int32
    private var directories: [Int32: (path: String, tree: Bool)] = [:]
    private var descriptors: [String: Int32] = [:]
    private var buffer = [UInt8](repeating: 0, count: 65536)

    init() throws {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else {
            // The run's failure (status 1), not a usage error: the command line was right.
            ProcessOutput.err(ProgramName.prefixed("" + WatchRefusal.message(errno, watching: "the test files") + "") + "\n")
            throw ExitCode(1)
        }
    }

    deinit { close(fd) }

    var count: Int { directories.count }

    /// Watches `directory`; with `tree`, its subdirectories too (not those named ".*"), and
    /// those made later. A directory watched already is left as it is, or widened to its tree.
    func watch(_ directory: String, tree: Bool) {
        if let wd = descriptors[directory], let known = directories[wd] {
            guard tree, !known.tree else { return }
            directories[wd] = (directory, true)
        } else {
            let wd = BytePath.withCString(directory) { inotify_add_watch(fd, $0, Self.mask) }
            guard wd >= 0 else { return }
            directories[wd] = (directory, tree)
            descriptors[directory] = wd
            guard tree else { return }
        }
        for entry in BytePath.entries(of: directory) ?? [] where !entry.hasPrefix(".") {
            let path = directory == "/" ? "/" + entry : directory + "/" + entry
            if pathKind(path).isDirectory {
                watch(TestDiscovery.realPath(path) ?? path, tree: true)
            }
        }
    }

    /// How long to wait for the first event: `block` until one comes, `settle` 100 ms (a batch
    /// begun), `drain` not at all. After an event, what follows within 100 ms is taken too
    /// (editors save in bursts: write, rename, delete), except when draining.
    enum Wait: Int32 { case block = -1, settle = 100, drain = 0 }

    /// `keys`: a descriptor also waited on; when it can be read the wait ends (`keyReady`).
    func next(_ wait: Wait, keys: Int32? = nil) -> Burst {
        var burst = Burst()
        var timeout = wait.rawValue
        while true {
            var pollers = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: keys ?? -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pollers, 2, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return burst }
            if pollers[1].revents != 0 {
                burst.keyReady = true
                if pollers[0].revents == 0 { return burst }
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return burst }
            parse(count: count, into: &burst)
            if wait != .drain { timeout = Wait.settle.rawValue }
        }
    }

    private func parse(count: Int, into burst: inout Burst) {
        buffer.withUnsafeBytes { raw in
            InotifyRecords.forEach(in: raw, count: count) { wd, mask, name in
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { burst.overflowed = true }
                if mask & UInt32(IN_IGNORED) != 0 { forget(wd) }
                guard let directory = directories[wd], !name.isEmpty else { return }
                let path = directory.path == "/" ? "/" + name : directory.path + "/" + name
                burst.events.append(take(mask, path: path, widensTree: directory.tree && !name.hasPrefix(".")))
            }
        }
    }

    /// The event for `path`; a directory made or moved into a watched tree is watched, one
    /// moved away is no longer (its watch would name its files by the old path).
    private func take(_ mask: UInt32, path: String, widensTree: Bool) -> Event {
        let isDirectory = mask & UInt32(IN_ISDIR) != 0
        if isDirectory && widensTree && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watch(path, tree: true) }
        if isDirectory && mask & UInt32(IN_MOVED_FROM) != 0 { unwatch(under: path) }
        return Event(path: path, isDirectory: isDirectory, created: mask & UInt32(IN_CREATE) != 0)
    }

    private func unwatch(under path: String) {
        for (directory, wd) in descriptors where directory == path || directory.hasPrefix(path + "/") {
            inotify_rm_watch(fd, wd)
            forget(wd)
        }
    }

    private func forget(_ wd: Int32) {
        guard let directory = directories.removeValue(forKey: wd) else { return }
        descriptors[directory.path] = nil
    }
}

