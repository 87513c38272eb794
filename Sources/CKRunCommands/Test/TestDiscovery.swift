import ArgumentParser
import Foundation

/// Finds test files: `*_test.lua`, `*_spec.lua` and `test_*.lua` under each directory
/// (recursively, skipping folders whose names start with "."), plus files named explicitly.
enum TestDiscovery {
    static func isTestFile(_ name: String) -> Bool {
        guard name.hasSuffix(".lua") else { return false }
        return name.hasSuffix("_test.lua") || name.hasSuffix("_spec.lua") || name.hasPrefix("test_")
    }

    /// Sorted by path, each file once. A path that does not exist is a usage error.
    static func files(in paths: [String]) throws -> [String] {
        let fileManager = FileManager.default
        var found = Set<String>()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("no such file or directory: \(path)")
            }
            if isDirectory.boolValue {
                found.formUnion(search(directory: path))
            } else {
                found.insert(tidy(path))
            }
        }
        return found.sorted()
    }

    private static func search(directory: String) -> [String] {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = []
        for entry in entries where !entry.hasPrefix(".") {
            let path = join(directory, entry)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += search(directory: path)
            } else if isTestFile(entry) {
                files.append(tidy(path))
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
