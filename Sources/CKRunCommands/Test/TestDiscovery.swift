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

/// Finds test files as busted 2.1.1 does (its `test_file_loader.lua`): each path in the order
/// given (busted's ROOT order), a directory's files sorted by path (recursively, skipping
/// folders and files whose names start with "."), those whose names match a `--pattern` (Lua
/// patterns found anywhere in the name: `_spec` selects `parser_specs.lua` too) and no
/// `--exclude-pattern`; a file named explicitly whatever its name. Only `.lua` files run (busted's
/// Lua loader takes no other), named or found. With no pattern configured (neither `--pattern`
/// nor `.busted`), busted's default `_spec` and ckrun's `_test.lua` convention. Nothing is
/// de-duplicated, as in busted: a file named twice, or reached through a directory and by name,
/// or through a symbolic link, runs each time; only a link back to a directory being searched
/// (a loop) is not followed again. Unlike busted, the walk is bounded: a directory on /proc or
/// /sys (`BytePath.isKernelFileSystem`) is not searched, and a walk that passes the run's time
/// limit (--timeout, --sandbox's default) stops; both are `[cannotRead]`/`[timeout]` errors of
/// the run (busted walked /proc/self until a link failed, 9 s later; ckrun walked for minutes).
enum TestDiscovery {
    /// busted's default pattern.
    static let defaultPattern = "_spec"

    /// Patterns are matched by `LuaPatternMatcher`, linear by construction. A malformed pattern
    /// is a usage error.
    static func files(in paths: [String], patterns: [String], excluding: [String], recursive: Bool = true,
                      timeLimit: Double? = nil) throws -> Selection {
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
        return try files(in: paths, recursive: recursive, timeLimit: timeLimit) { name in
            !excluded.contains { $0.matches(name) } && (chosen.contains { $0.matches(name) } || (testConvention && name.hasSuffix("_test.lua")))
        }
    }

    /// What a search found: the files that run, and whether busted's list had any file at all
    /// (a named file, or one whose name matched, `.lua` or not): busted fails a run whose list is
    /// empty ("No test files found matching Lua pattern"), not one whose files hold no test.
    struct Selection {
        var files: [String] = []
        var listedAny = false
        /// Directories that could not be read (busted stops with Penlight's "cannot open DIR"):
        /// `[cannotRead]` errors of the run, which then fails.
        var unreadable: [String] = []
    }

    /// busted's Lua loader (`busted/modules/files/lua.lua`) takes a file whose extension is `.lua`.
    static func isLua(_ path: String) -> Bool { path.hasSuffix(".lua") }

    /// busted sorts a root's files by their whole paths (`table.sort`, bytes).
    static func bytewise(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// Each path in turn, a directory's files sorted; `isTest` is busted's name filter (the
    /// `.lua` extension is asked after it). A path that does not exist is an error of the run (it
    /// fails; the others run), as busted's; a named file that is not a regular file is a usage
    /// error (a FIFO would block the run before any limit).
    /// Not `recursive` (busted's --no-recursive): only the files directly in each directory.
    static func files(in paths: [String], recursive: Bool = true, timeLimit: Double? = nil,
                      isTest: (String) -> Bool) throws -> Selection {
        var selection = Selection(), unreadable: [String] = []
        var walk = Walk(recursive: recursive, timeLimit: timeLimit)
        for path in paths {
            var listed: [String]
            switch kind(path) {
            case nil:
                // busted's: an error of the run, which fails; the other paths still run.
                unreadable.append(Catalogue.cannotRead.message("Cannot find file or directory: \(BytePath.shown(path))"))
                continue
            case .directory?:
                listed = walk.search(directory: path, isTest: isTest)
                listed.sort(by: bytewise)
            case .regular?: listed = [tidy(path)]
            case .other?: throw ValidationError("\(BytePath.shown(path)) is not a regular file (a FIFO, socket or device): name a spec file")
            }
            selection.listedAny = selection.listedAny || !listed.isEmpty
            selection.files += listed.filter(isLua)
        }
        selection.unreadable = unreadable + walk.unreadable
        return selection
    }

    static func realPath(_ path: String) -> String? { BytePath.realPath(path) }

    enum Kind { case directory, regular, other }

    /// What `path` is, symbolic links followed; nil when nothing is there.
    static func kind(_ path: String) -> Kind? {
        // A path that cannot be looked at (EACCES: a directory on the way is closed) is a file
        // there: reading it then says why it cannot run.
        guard let info = BytePath.status(path) else { return errno == ENOENT || errno == ENOTDIR ? nil : .regular }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// One walk over the paths given: what it could not search, and its time limit.
    struct Walk {
        let recursive: Bool
        let timeLimit: Double?
        let started = AppClock.monotonic()
        var unreadable: [String] = []
        /// The real paths of the directories being searched (this one's ancestors), so a link
        /// back to one of them ends; a link to any other directory is searched, as busted does.
        var searching: [String] = []
        var timedOut = false

        mutating func search(directory: String, isTest: (String) -> Bool) -> [String] {
            guard !timedOut else { return [] }
            if let limit = timeLimit, AppClock.monotonic() - started > limit {
                timedOut = true
                unreadable.append(Catalogue.timeout.message("finding the test files took longer than the time limit (\(limit) s) at \(BytePath.shown(tidy(directory))); name the folders that hold them (ROOT in .busted, or paths), or raise --timeout"))
                return []
            }
            if BytePath.isKernelFileSystem(directory) {
                unreadable.append(Catalogue.cannotRead.message("\(BytePath.shown(tidy(directory))) is on a file system of the process or the kernel (/proc, /sys): ckrun searches no test files there"))
                return []
            }
            let real = realPath(directory) ?? directory
            guard !searching.contains(real) else { return [] }
            guard let entries = BytePath.entries(of: directory) else {
                unreadable.append(Catalogue.cannotRead.message("cannot open \(BytePath.shown(tidy(directory))): \(SystemError.text(errno)); its test files did not run"))
                return []
            }
            searching.append(real)
            defer { searching.removeLast() }
            var files: [String] = []
            for entry in entries.sorted(by: bytewise) where !entry.hasPrefix(".") {
                let path = join(directory, entry)
                switch kind(path) {
                case .directory?: if recursive { files += search(directory: path, isTest: isTest) }
                case .regular?: if isTest(entry) { files.append(tidy(path)) }
                case .other?, nil: continue   // a FIFO named x_spec.lua would block the run: busted's pattern picks files
                }
            }
            return files
        }
    }

    fileprivate static func join(_ directory: String, _ entry: String) -> String {
        if directory == "." { return entry }
        return directory.hasSuffix("/") ? directory + entry : directory + "/" + entry
    }

    /// `./a/b_spec.lua` reads as `a/b_spec.lua`.
    fileprivate static func tidy(_ path: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }
}
