#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

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

    /// What one pass runs: `files` nil is everything (the first pass), else those files, which
    /// are among `discovered`; `filters` replace `--filter` when given.
    struct Pass {
        var files: [String]?
        var filters: [String]?
        var updateSnapshots = false
    }

    /// The keys on a terminal (`WatchKeys`), the `p` key's pattern, and the tests that failed
    /// in each file's last run (full names), for `f`.
    private var keys = WatchKeys()
    private var namePattern: String?
    private var failures: [String: [String]] = [:]
    private var run: (Pass) -> [FileResult] = { _ in [] }

    /// Runs the passes: `run` returns each pass's results.
    func loop(_ run: @escaping (Pass) -> [FileResult]) -> Never {
        self.run = run
        watchRoots()
        _ = refreshTests()
        var pending = finish(run(Pass()))
        // Files a pass's own tests changed (they write what they load), once such a change alone
        // started another pass: the same change again starts none, so a pass cannot start itself forever.
        var echoes: Set<String> = []
        while true {
            let duringPass = pending.paths
            // Events kept from a pass may be the start of a burst: they settle 100 ms first.
            let burst = watches.next(pending.isEmpty ? .block : .settle, keys: keys?.fd)
            pending.add(burst, filter: filter)
            if burst.keyReady, let keyed = typed() {
                pending = keyed
                continue
            }
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
            if !plan.tests.isEmpty { pending = finish(run(Pass(files: graph.names(of: plan.tests), filters: nameFilters))) }
        }
    }

    private var nameFilters: [String]? { namePattern.map { [$0] } }

    /// A key typed while waiting: the pass it asks for ran (what changed meanwhile is returned),
    /// or nil (another key: nothing ran). `q` ends the process.
    private func typed() -> ChangeBatch? {
        guard let keys else { return nil }
        let key: WatchKeys.Key
        switch keys.read() {
        case .key(let k): key = k
        case .other: return nil
        case .end:
            self.keys = nil   // input closed: no more keys
            return nil
        }
        var pass = Pass(files: discovered, filters: nameFilters)
        switch key {
        case .quit: exit(0)
        case .update: pass.updateSnapshots = true
        case .pattern:
            let typed = keys.ask("\nckrun test --watch: run the tests whose names match (a Lua pattern; empty: all): ")
            namePattern = typed.isEmpty ? nil : typed
            if let problem = namePattern.flatMap(LuaPattern.problem(in:)) {
                StandardStreams.err("ckrun test --watch: \(problem)\n")
                namePattern = nil
            }
            pass.filters = nameFilters ?? []
        case .failed:
            let failed = discovered.filter { !(failures[$0] ?? []).isEmpty }
            guard !failed.isEmpty else {
                StandardStreams.err("\nckrun test --watch: no test failed in the last runs\n")
                waiting()
                return ChangeBatch()
            }
            pass = Pass(files: failed, filters: failed.flatMap { failures[$0] ?? [] }.map(Self.exactly))
        case .all: break
        }
        StandardStreams.err("\nckrun test --watch: \(Self.describe(key, pass)): running \(pass.files?.count ?? 0) test file\((pass.files?.count ?? 0) == 1 ? "" : "s")\n")
        return finish(run(pass))
    }

    private static func describe(_ key: WatchKeys.Key, _ pass: Pass) -> String {
        switch key {
        case .update: "updating snapshots"
        case .failed: "the tests that failed"
        case .pattern: pass.filters?.first.map { "the tests matching \($0)" } ?? "every test"
        case .all, .quit: pass.filters?.first.map { "every file, tests matching \($0)" } ?? "every test"
        }
    }

    /// A Lua pattern matching exactly `name` (a test's full name, for `--filter`).
    static func exactly(_ name: String) -> String {
        "^" + name.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " ? String($0) : "%" + String($0) }.joined() + "$"
    }

    private func watchRoots() {
        for root in roots {
            let (exists, isDirectory) = pathKind(root)
            guard exists else { continue }
            // A file's directory is watched (an atomic save replaces the file), not its tree.
            let path = paths.canonical(root)
            let directory = isDirectory ? (TestDiscovery.realPath(path) ?? path) : ProjectPaths.parent(of: path)
            paths.include(directory)
            if isDirectory { watches.watchRoot(directory, tree: recursive) } else { watches.watch(directory, tree: false) }
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
            failures[result.file] = result.tests.filter(\.didFail).map(\.name)
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
        let keyHelp = keys == nil ? "" : WatchKeys.usage + "; "
        StandardStreams.err("ckrun test --watch: waiting for changes in \(watches.count) director\(watches.count == 1 ? "y" : "ies") (\(keyHelp)Ctrl-C ends)\n")
    }
}
