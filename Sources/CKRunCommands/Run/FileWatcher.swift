import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `--watch`: inotify on the app's directory tree (its subdirectories too, not those named
/// ".*": a module `parts.row` is `parts/row.lua`, atk-new 15). The run's event loop waits on
/// `descriptor` beside its input (poll, no polling loop) and calls `changedFiles()` when it is
/// readable.
final class FileWatcher {
    let descriptor: Int32
    private let directory: String
    /// Each watch's directory, relative to the app's ("" for its own, "parts/" below it).
    private var prefixes: [Int32: String] = [:]
    /// Directories watched below the app's at most: a tree the size of a home directory is
    /// not the app's modules.
    private static let subdirectoryLimit = 1000
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)

    /// Why the last watcher could not be made (`[cannotWatch]`, the cause from errno).
    nonisolated(unsafe) private(set) static var refusal: String?

    /// Watches the `.lua` files of `directory`; nil (and `refusal` says why) if inotify refuses.
    init?(directory: String) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            Self.refusal = WatchRefusal.message(errno, watching: BytePath.shown(directory))
            return nil
        }
        let wd = BytePath.withCString(directory, { inotify_add_watch(fd, $0, Self.mask) })
        guard wd >= 0 else {
            Self.refusal = WatchRefusal.message(errno, watching: BytePath.shown(directory))
            close(fd)
            return nil
        }
        descriptor = fd
        self.directory = directory
        prefixes[wd] = ""
        watchSubdirectories(of: "")
    }

    /// Watches the subdirectories of `prefix` (relative to the app's directory), their trees too.
    private func watchSubdirectories(of prefix: String) {
        let base = prefix.isEmpty ? directory : directory + "/" + prefix.dropLast()
        for entry in BytePath.entries(of: base) ?? [] where !entry.hasPrefix(".") {
            guard prefixes.count <= Self.subdirectoryLimit else { return }
            watchSubdirectory(prefix + entry)
        }
    }

    private func watchSubdirectory(_ relative: String) {
        let path = directory + "/" + relative
        guard pathKind(path).isDirectory, prefixes.count <= Self.subdirectoryLimit,
              !prefixes.values.contains(relative + "/") else { return }
        let wd = BytePath.withCString(path, { inotify_add_watch(descriptor, $0, Self.mask | UInt32(IN_ONLYDIR)) })
        guard wd >= 0 else { return }
        prefixes[wd] = relative + "/"
        watchSubdirectories(of: relative + "/")
    }

    /// Stops watching the subdirectory `relative` (ending in "/") and those below it.
    private func unwatch(under relative: String) {
        for (wd, prefix) in prefixes where prefix.hasPrefix(relative) {
            inotify_rm_watch(descriptor, wd)
            prefixes[wd] = nil
        }
    }

    deinit { close(descriptor) }

    /// Reads the pending events, then any that follow within 50 ms (an editor's save is often
    /// several: write, rename, delete), for at most a second (a file written without pause
    /// must not hold the run); returns the changed `.lua` files' names.
    func changedFiles() -> [String] {
        var names: [String] = []
        for _ in 0..<20 {
            names += drain()
            if !wait(milliseconds: 50) { break }
        }
        var unique: [String] = []
        for n in names where n.hasSuffix(".lua") && !unique.contains(n) { unique.append(n) }
        return unique
    }

    private func wait(milliseconds: Int32) -> Bool {
        var p = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) > 0
    }

    private func drain() -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            buffer.withUnsafeBytes { raw in
                InotifyRecords.forEach(in: raw, count: n) { wd, mask, name in
                    if mask & UInt32(IN_IGNORED) != 0 { prefixes[wd] = nil }
                    guard !name.isEmpty, let prefix = prefixes[wd] else { return }
                    // A subdirectory moved away or deleted is no longer watched: its watch stays
                    // on the directory it was added to, and one made again under its name was
                    // never watched, its prefix taken (atk-data 11).
                    if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { unwatch(under: prefix + name + "/") }
                    names.append(prefix + name)
                }
            }
        }
        // A directory made (or moved) into the tree is watched from now on.
        for name in names where !name.hasSuffix(".lua") && !(name.split(separator: "/").last?.hasPrefix(".") ?? true) {
            watchSubdirectory(name)
        }
        return names
    }
}
