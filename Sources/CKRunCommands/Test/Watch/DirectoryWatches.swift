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
    /// The parents of the roots (`watchRoot`), each with its roots' names and whether each is
    /// watched with its tree: a root moved away or deleted and made again is watched again.
    private var rootParents: [Int32: (path: String, roots: [String: Bool])] = [:]
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

    /// `watch`, and the root's parent for its name alone: a watch stays on the directory it was
    /// added to, so one moved aside went on reporting it under the root's name, and a root made
    /// again was never watched (atk-data 11: nothing in a recreated spec/ ever ran).
    func watchRoot(_ directory: String, tree: Bool) {
        watch(directory, tree: tree)
        guard directory != "/" else { return }
        let parent = ProjectPaths.parent(of: directory)
        let name = String(directory[directory.index(after: directory.lastIndex(of: "/") ?? directory.startIndex)...])
        let wd = BytePath.withCString(parent) { inotify_add_watch(fd, $0, Self.mask) }
        guard wd >= 0 else { return }
        rootParents[wd, default: (parent, [:])].roots[name] = tree
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
                rootReplaced(wd, mask, name, into: &burst)
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

    /// A root's directory entry changed in its parent: one that left is no longer watched, one
    /// made (or moved in) is watched afresh, and the change is an event (a pass rediscovers the
    /// test files: those written before its watch came have no event of their own).
    private func rootReplaced(_ wd: Int32, _ mask: UInt32, _ name: String, into burst: inout Burst) {
        guard mask & UInt32(IN_ISDIR) != 0, let parent = rootParents[wd], let tree = parent.roots[name] else { return }
        let path = parent.path == "/" ? "/" + name : parent.path + "/" + name
        unwatch(under: path)
        let made = mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
        if made { watch(path, tree: tree) }
        if directories[wd] == nil { burst.events.append(Event(path: path, isDirectory: true, created: made)) }
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

