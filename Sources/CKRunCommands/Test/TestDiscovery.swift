import ArgumentParser
import CKCore
import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Finds test files as busted 2.1.1 does (its `test_file_loader.lua`): under each directory
/// (recursively, skipping folders and files whose names start with "."), the `.lua` files whose
/// names match a `--pattern` (Lua patterns found anywhere in the name: `_spec` selects
/// `parser_specs.lua` too) and no `--exclude-pattern`; a file named explicitly runs whatever its
/// name. With no pattern configured (neither `--pattern` nor `.busted`), busted's default `_spec`
/// and ckrun's `_test.lua` convention. Each real directory is searched once, however many
/// symbolic links lead to it (so link loops end), and each real file is run once.
enum TestDiscovery {
    /// busted's default pattern.
    static let defaultPattern = "_spec"

    /// Patterns are matched by `LuaPatternMatcher`, linear by construction. A malformed pattern
    /// is a usage error.
    static func files(in paths: [String], patterns: [String], excluding: [String], recursive: Bool = true) throws -> [String] {
        func matchers(_ list: [String], _ option: String) throws -> [LuaPatternMatcher] {
            try list.filter { !$0.isEmpty }.map { pattern in
                guard let matcher = LuaPatternMatcher(pattern) else {
                    throw ValidationError("\(option) '\(pattern)' is not a valid Lua pattern: \(LuaPatternMatcher.problem(in: pattern) ?? "?")")
                }
                return matcher
            }
        }
        let chosen = try matchers(patterns.isEmpty ? [defaultPattern] : patterns, "--pattern")
        let excluded = try matchers(excluding, "--exclude-pattern")
        let testConvention = patterns.isEmpty
        return try files(in: paths, recursive: recursive) { name in
            name.hasSuffix(".lua") && !excluded.contains { $0.matches(name) }
                && (chosen.contains { $0.matches(name) } || (testConvention && name.hasSuffix("_test.lua")))
        }
    }

    /// Sorted by path, each file once. A path that does not exist is a usage error, and so is a
    /// named file that is not a regular file (a FIFO would block the run before any limit). Not
    /// `recursive` (busted's --no-recursive): only the files directly in each directory. Names
    /// are bytes (`BytePath`): one that is not UTF-8 is found and run as any other.
    static func files(in paths: [String], recursive: Bool = true, isTest: (String) -> Bool) throws -> [String] {
        var found = Set<String>(), visited = Set<String>()
        for path in paths {
            switch kind(path) {
            case nil: throw ValidationError("no such file or directory: \(BytePath.shown(path))")
            case .directory?: found.formUnion(search(directory: path, visited: &visited, recursive: recursive, isTest: isTest))
            case .regular?: found.insert(tidy(path))
            case .other?: throw ValidationError("\(BytePath.shown(path)) is not a regular file (a FIFO, socket or device): name a spec file")
            }
        }
        // One path per real file: the first in sorted order.
        var realFiles = Set<String>()
        return found.sorted().filter { realFiles.insert(realPath($0) ?? $0).inserted }
    }

    static func realPath(_ path: String) -> String? { BytePath.realPath(path) }

    enum Kind { case directory, regular, other }

    /// What `path` is, symbolic links followed; nil when nothing is there.
    static func kind(_ path: String) -> Kind? {
        guard let info = BytePath.status(path) else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    private static func search(directory: String, visited: inout Set<String>, recursive: Bool, isTest: (String) -> Bool) -> [String] {
        guard visited.insert(realPath(directory) ?? directory).inserted, let entries = BytePath.entries(of: directory) else { return [] }
        var files: [String] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = join(directory, entry)
            switch kind(path) {
            case .directory?: if recursive { files += search(directory: path, visited: &visited, recursive: true, isTest: isTest) }
            case .regular?: if isTest(entry) { files.append(tidy(path)) }
            case .other?, nil: continue   // a FIFO named x_spec.lua would block the run: busted's pattern picks files
            }
        }
        return files
    }

    private static func join(_ directory: String, _ entry: String) -> String {
        if directory == "." { return entry }
        return directory.hasSuffix("/") ? directory + entry : directory + "/" + entry
    }

    /// `./a/b_spec.lua` reads as `a/b_spec.lua`.
    private static func tidy(_ path: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }
}
