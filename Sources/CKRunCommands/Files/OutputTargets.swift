import CKCore

/// The one check every file a run writes for the user passes before the run starts (`--junit`,
/// busted's `-o junit -Xoutput FILE`, Bazel's `XML_OUTPUT_FILE`, `--coverage`'s
/// `luacov.stats.out` and `lcov.info`): none is an input the run reads or the checkout keeps (a
/// Lua file, `.busted`, a snapshot file), and no two name the same file (`--junit
/// __snapshots__/ui_spec.snap` replaced the committed snapshot; `--coverage --junit lcov.info`
/// lost the JUnit report).
enum OutputTargets {
    struct Target {
        /// How the user named it: `--junit`, `XML_OUTPUT_FILE`, `--coverage's lcov.info`.
        let option: String
        let path: String
    }

    /// Why the run must not start (a usage error naming both files), or nil.
    static func refusal(_ targets: [Target]) -> String? {
        for (index, target) in targets.enumerated() {
            let shown = BytePath.shown(target.path)
            if let kept = keptFile(target.path) {
                return "\(target.option) \(shown) names \(kept), which the report would replace; name the report's own file (report.xml)"
            }
            if let other = targets[..<index].first(where: { sameFile($0.path, target.path) }) {
                return "\(target.option) \(shown) is also the file of \(other.option): one report would replace the other; give each its own file"
            }
        }
        return nil
    }

    /// What the checkout keeps at `path` that no report may replace, or nil.
    static func keptFile(_ path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        if ReplacingFile.isSource(path) { return "a Lua source or a .busted file" }
        if parts.dropLast().contains("__snapshots__") || (parts.last ?? "").hasSuffix(".snap") {
            return "a snapshot file (assert.tree_snapshot's)"
        }
        return nil
    }

    /// The same file as a write sees it: the directory's links followed, the last name's not
    /// (a link there is replaced, never written through: `ReplacingFile`).
    private static func sameFile(_ a: String, _ b: String) -> Bool {
        func canonical(_ path: String) -> String {
            let absolute = BytePath.absolute(path)
            let slash = absolute.lastIndex(of: "/") ?? absolute.startIndex
            let directory = String(absolute[..<slash]), name = String(absolute[absolute.index(after: slash)...])
            return (BytePath.realPath(directory.isEmpty ? "/" : directory) ?? directory) + "/" + name
        }
        return canonical(a) == canonical(b)
    }
}
