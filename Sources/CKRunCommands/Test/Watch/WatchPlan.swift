/// What a batch of changes re-runs: a changed test file, the test files that loaded a changed
/// file, a test file new to the run; never one gone from it. And the line that says what changed.
struct WatchPlan {
    /// Resolved paths of the test files to run.
    private(set) var tests: Set<String> = []
    /// What changed, by verb ("changed", "added", "removed"): display names.
    private var reasons: [(verb: String, names: [String])] = []
    /// Changed files no test file loaded.
    private var unknown: [String] = []

    /// `changed` and `gone`: the batch's files (ChangeBatch); `added` and `removed`: test files
    /// discovery found or lost since the last batch (some in no event: a new directory's).
    init(changed: [String], gone: [String], added: [String], removed: [String], graph: DependencyGraph, paths: ProjectPaths) {
        let (added, removed) = (Set(added), Set(removed))
        tests = added
        note("added", added.sorted(), paths)
        note("removed", removed.sorted(), paths)
        for path in changed + gone where !added.contains(path) && !removed.contains(path) {
            let loaders = graph.loaders(of: path)
            if graph.isTest(path) || !loaders.isEmpty {
                note(gone.contains(path) ? "removed" : "changed", [path], paths)
            } else {
                unknown.append(paths.display(path))
            }
        }
        for path in changed + gone {
            if graph.isTest(path) { tests.insert(path) }
            tests.formUnion(graph.loaders(of: path).subtracting(removed))
        }
    }

    /// Every test file, when the kernel's queue overflowed and changes were lost.
    init(everything graph: DependencyGraph) {
        tests = Set(graph.tests.map(\.path))
        reasons = [("lost (the kernel's event queue overflowed)", ["changes"])]
    }

    /// `ckrun test --watch: src/m.lua changed: running 2 test files`; nil when nothing changed
    /// but directories.
    var header: String? {
        guard !reasons.isEmpty || !unknown.isEmpty else { return nil }
        let what = (reasons + (reasons.isEmpty ? [("changed", unknown)] : [])).map { Self.list($0.names) + " " + $0.verb }
        var line = "ckrun test --watch: " + what.joined(separator: ", ")
        if reasons.isEmpty {
            line += ", but no test file loads " + (unknown.count == 1 ? "it" : "them")
        }
        line += tests.isEmpty ? ": nothing to run" : ": running \(tests.count) test file\(tests.count == 1 ? "" : "s")"
        if !reasons.isEmpty && !unknown.isEmpty { line += " (no test file loads \(Self.list(unknown)))" }
        return line
    }

    private mutating func note(_ verb: String, _ files: [String], _ paths: ProjectPaths) {
        guard !files.isEmpty else { return }
        let names = files.map(paths.display)
        if let index = reasons.firstIndex(where: { $0.verb == verb }) {
            reasons[index].names += names
        } else {
            reasons.append((verb, names))
        }
    }

    /// "a, b, c and 2 more".
    private static func list(_ names: [String]) -> String {
        names.count <= 3 ? names.joined(separator: ", ") : names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
    }
}
