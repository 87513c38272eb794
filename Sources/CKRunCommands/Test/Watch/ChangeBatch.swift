import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What `--watch` never reacts to: editors' scratch files (names starting with "." or ending in
/// "~", ".swp", ".swx", vim's "4913" probe; emacs's "#name#") and the run's own outputs (the
/// coverage reports, the JUnit file). The snapshot files a pass wrote are dropped as the pass
/// ends (TestWatcher): a snapshot edited by hand later re-runs its test file.
struct WatchFilter {
    var outputs: Set<String> = []

    func ignores(_ path: String) -> Bool {
        outputs.contains(path) || Self.isScratch(Self.name(path))
    }

    static func isScratch(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swx")
            || name.hasSuffix("4913") || (name.count > 1 && name.hasPrefix("#") && name.hasSuffix("#"))
    }

    static func isSnapshot(_ path: String) -> Bool {
        path.hasSuffix(".snap") && path.contains("/__snapshots__/")
    }

    private static func name(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}

/// The files that bursts of events leave behind, judged when they are taken: a file that exists
/// changed; one deleted or moved away is gone, unless it was also made within the batch. That
/// is an atomic save's temporary file (`sed -i`, vim, Foundation's atomic writes): written,
/// then renamed over the real name, whose move-in is the change.
struct ChangeBatch {
    /// Each file an event named, and whether it was made within the batch.
    private var files: [String: Bool] = [:]
    private(set) var overflowed = false
    /// Nothing happened, not even to a directory (a new one may hold new test files).
    private(set) var isEmpty = true
    /// The files its events named.
    var paths: Set<String> { Set(files.keys) }

    mutating func add(_ burst: DirectoryWatches.Burst, filter: WatchFilter, dropping drop: (String) -> Bool = { _ in false }) {
        if burst.overflowed { overflowed = true; isEmpty = false }
        for event in burst.events where !filter.ignores(event.path) && !drop(event.path) {
            isEmpty = false
            if !event.isDirectory { files[event.path] = (files[event.path] ?? false) || event.created }
        }
    }

    /// Changed files (they exist) and gone ones, sorted.
    func settle() -> (changed: [String], gone: [String]) {
        var changed: [String] = [], gone: [String] = []
        for (path, made) in files {
            if BytePath.exists(path) { changed.append(path) } else if !made { gone.append(path) }
        }
        return (changed.sorted(), gone.sorted())
    }
}
