import CKCore
#if canImport(Glibc)
import Glibc
#endif

/// The order `--jobs` hands files out in: the largest first, by bytes, so that a big file is not
/// started last while the other workers have nothing left to run (results are still reported in
/// the run's order). The run's own order is kept when it matters: under `--fail-fast` (the first
/// failure in that order should be found soon), `--shuffle-files` (the order is the point) and
/// when a worker's files share one state.
enum DispatchOrder {
    static func positions(of paths: [String], settings: TestRunSettings) -> [Int] {
        guard !settings.failFast, !settings.sharedState, !settings.shuffleFiles else { return Array(paths.indices) }
        var sizes: [String: Int] = [:]
        for path in paths where sizes[path] == nil { sizes[path] = byteSize(path) }
        let size = paths.map { sizes[$0] ?? 0 }
        return paths.indices.sorted { size[$0] != size[$1] ? size[$0] > size[$1] : $0 < $1 }
    }

    /// The file's size in bytes (0 when it cannot be read: it fails when it runs).
    private static func byteSize(_ path: String) -> Int {
        BytePath.status(path).map { Int($0.st_size) } ?? 0
    }
}
