/// The run's test files, as discovery finds them now, and the files each one's last run loaded
/// (itself included), all as `ProjectPaths` resolves them: who re-runs when a file changes.
struct DependencyGraph {
    /// Each test file's resolved path and the name the run gives it, in discovery order.
    private(set) var tests: [(path: String, name: String)] = []
    private var testPaths: Set<String> = []
    private var loads: [String: Set<String>] = [:]
    private var loadedBy: [String: Set<String>] = [:]

    /// Takes what discovery finds; returns the test files new to the run and those it lost.
    mutating func setTests(_ found: [(path: String, name: String)]) -> (added: [String], removed: [String]) {
        let paths = Set(found.map(\.path))
        let added = found.map(\.path).filter { !testPaths.contains($0) }
        let removed = tests.map(\.path).filter { !paths.contains($0) }
        for test in removed { record(test: test, loaded: []) }
        tests = found
        testPaths = paths
        return (added, removed)
    }

    /// What a run of `test` loaded, replacing what its earlier run loaded.
    mutating func record(test: String, loaded: Set<String>) {
        for file in loads[test] ?? [] { loadedBy[file]?.remove(test) }
        loads[test] = testPaths.contains(test) ? loaded : nil
        for file in loads[test] ?? [] { loadedBy[file, default: []].insert(test) }
    }

    func isTest(_ path: String) -> Bool { testPaths.contains(path) }

    /// The test files whose last run loaded `file`.
    func loaders(of file: String) -> Set<String> { loadedBy[file] ?? [] }

    /// The run's names of `chosen`, in discovery order.
    func names(of chosen: Set<String>) -> [String] {
        tests.filter { chosen.contains($0.path) }.map(\.name)
    }
}
