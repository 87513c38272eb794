import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Paths as `--watch` compares them: absolute, without "." and "..", the directory part's
/// symbolic links resolved (the kernel names a change by the directory watched plus a name, and
/// the loaders name a file as they found it: `./src/m.lua`, `spec/h.lua`, `/abs/root/m.lua`).
/// Printed relative to the working directory when inside it.
final class ProjectPaths {
    /// The working directory, resolved: the project.
    let root: String
    /// Further trees counted as the project's: the test paths outside the working directory.
    private var extraRoots: [String] = []
    /// Resolved directories by their unresolved text (only those that existed are kept).
    private var resolved: [String: String] = [:]

    init() {
        let directory = BytePath.currentDirectory()
        root = TestDiscovery.realPath(directory) ?? directory
    }

    /// A test path's tree counts as the project's too (`ckrun test --watch /elsewhere/spec`).
    func include(_ tree: String) {
        let path = canonical(tree)
        if !contains(path) { extraRoots.append(path) }
    }

    func canonical(_ path: String) -> String {
        let absolute = Self.normalized(path.hasPrefix("/") ? path : root + "/" + path)
        guard let slash = absolute.lastIndex(of: "/"), slash != absolute.startIndex else { return absolute }
        return directory(String(absolute[..<slash])) + absolute[slash...]
    }

    /// Inside the working directory's tree or a test path's: never the system's Lua libraries.
    func contains(_ path: String) -> Bool {
        ([root] + extraRoots).contains { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }
    }

    /// `src/m.lua` for a file under the working directory, else the absolute path.
    func display(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private func directory(_ path: String) -> String {
        if let known = resolved[path] { return known }
        guard let real = TestDiscovery.realPath(path) else { return path }
        resolved[path] = real
        return real
    }

    /// "/a/./b/../c//d" → "/a/c/d".
    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }
}
