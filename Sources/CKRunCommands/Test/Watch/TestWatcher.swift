import Foundation

/// `--watch`: runs the tests, then waits on inotify (nothing polls) and re-runs the test files
/// a change affects: a changed test file, the test files whose last run loaded a changed file
/// (`FileResult.loadedFiles`), a test file new to discovery. Watched: the test paths (a
/// directory's tree; a file's directory) and the directory of every file a run loaded inside
/// the project, added as runs load them. Ends with the process (Ctrl-C).
final class TestWatcher {
    /// The test paths: directories (searched for test files) or files.
    let roots: [String]
    /// busted's --no-recursive: a directory's own files only.
    let recursive: Bool
    /// Test files as the run's discovery rules find them now (a missing path finds none).
    let discover: () -> [String]
    private let paths = ProjectPaths()
    private let watches: DirectoryWatches
    private var filter = WatchFilter()
    private var graph = DependencyGraph()
    /// What discovery found last, in its order (a file's place among them keys --shard).
    private(set) var discovered: [String] = []

    /// `outputs`: files the run writes (coverage reports, the JUnit file), never reacted to.
    init(roots: [String], recursive: Bool, outputs: [String], discover: @escaping () -> [String]) throws {
        self.roots = roots
        self.recursive = recursive
        self.discover = discover
        watches = try DirectoryWatches()
        filter.outputs = Set(outputs.map(paths.canonical))
    }

    /// `run(nil)` runs everything (the first pass), `run(files)` those files, which are among
    /// `discovered`; each returns the results.
    func loop(_ run: ([String]?) -> [FileResult]) -> Never {
        watchRoots()
        _ = refreshTests()
        var pending = finish(run(nil))
        // Files a pass's own tests changed (they write what they load), once such a change alone
        // started another pass: the same change again starts none, so a pass cannot start itself forever.
        var echoes: Set<String> = []
        while true {
            let duringPass = pending.paths
            // Events kept from a pass may be the start of a burst: they settle 100 ms first.
            pending.add(watches.next(pending.isEmpty ? .block : .settle), filter: filter)
            guard !pending.isEmpty else { continue }
            if !duringPass.isEmpty, pending.paths == duringPass {
                if duringPass == echoes {
                    pending = ChangeBatch()
                    continue
                }
                echoes = duringPass
                StandardStreams.err("\nckrun test --watch: \(duringPass.map(paths.display).sorted().joined(separator: ", ")) changed while the tests ran (do they write it?): once more, then only when you change it\n")
            }
            let plan = makePlan(pending)
            pending = ChangeBatch()
            if let header = plan.header { StandardStreams.err("\n" + header + "\n") }
            if !plan.tests.isEmpty { pending = finish(run(graph.names(of: plan.tests))) }
        }
    }

    private func watchRoots() {
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else { continue }
            // A file's directory is watched (an atomic save replaces the file), not its tree.
            let path = paths.canonical(root)
            let directory = isDirectory.boolValue ? (TestDiscovery.realPath(path) ?? path) : ProjectPaths.parent(of: path)
            paths.include(directory)
            watches.watch(directory, tree: isDirectory.boolValue && recursive)
        }
    }

    /// Discovery again: the test files it found and lost since the last time.
    private func refreshTests() -> (added: [String], removed: [String]) {
        discovered = discover()
        return graph.setTests(discovered.map { (paths.canonical($0), $0) })
    }

    private func makePlan(_ batch: ChangeBatch) -> WatchPlan {
        let (added, removed) = refreshTests()
        if batch.overflowed { return WatchPlan(everything: graph) }
        let (changed, gone) = batch.settle()
        return WatchPlan(changed: changed, gone: gone, added: added, removed: removed, graph: graph, paths: paths)
    }

    /// After a pass: records what each file loaded and watches those files' directories. What
    /// happened meanwhile is kept for the next batch, but for the snapshot files the pass's
    /// test files use (it may have written them).
    private func finish(_ results: [FileResult]) -> ChangeBatch {
        var snapshots = Set<String>()
        for result in results {
            let test = paths.canonical(result.file)
            let loaded = Set(result.loadedFiles.map(paths.canonical).filter(paths.contains)).union([test])
            graph.record(test: test, loaded: loaded)
            for directory in Set(loaded.map(ProjectPaths.parent(of:))) { watches.watch(directory, tree: false) }
            snapshots.formUnion(loaded.filter(WatchFilter.isSnapshot))
        }
        var meanwhile = ChangeBatch()
        meanwhile.add(watches.next(.drain), filter: filter, dropping: snapshots.contains)
        waiting()
        return meanwhile
    }

    private func waiting() {
        StandardStreams.err("ckrun test --watch: waiting for changes in \(watches.count) director\(watches.count == 1 ? "y" : "ies") (Ctrl-C ends)\n")
    }
}
