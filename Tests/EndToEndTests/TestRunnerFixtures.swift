import CKTestHelpers
import Foundation

/// A folder of Lua test files, and `ckrun test` run inside it.
struct TestRunnerFixture {
    let directory: TemporaryDirectory

    init(_ files: [String: String]) throws {
        directory = try TemporaryDirectory()
        for (name, contents) in files { try directory.write(name, contents) }
    }

    func test(_ arguments: String...) throws -> ProcessResult {
        try test(arguments)
    }

    func test(_ arguments: [String]) throws -> ProcessResult {
        try Ckrun.run(["test"] + arguments + searchedHere(arguments), directory: directory.url)
    }

    /// busted's only default ROOT is `spec`: a fixture that keeps its test files at its top (no
    /// `spec`, no `.busted` ROOT) and names no path nor another directory is searched as `ckrun test .`.
    func searchedHere(_ arguments: [String]) -> [String] {
        let top = directory.url.path
        if FileManager.default.fileExists(atPath: top + "/spec") { return [] }
        if let config = try? String(contentsOfFile: top + "/.busted", encoding: .utf8), config.contains("ROOT") { return [] }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || !argument.hasPrefix("-") || ["-C", "--directory"].contains(argument) || argument.hasPrefix("--directory=") {
                return []
            }
            if Self.optionsWithValues.contains(argument) { index += 1 }
            index += 1
        }
        return ["."]
    }

    /// `ckrun test`'s options that take the next argument as their value.
    static let optionsWithValues: Set<String> = [
        "-o", "--output", "-p", "--pattern", "--exclude-pattern", "--filter", "--filter-out", "--exclude", "-t", "--tags",
        "--exclude-tags", "-m", "--lpath", "--cpath", "--helper", "-e", "-C", "--directory", "-f", "--config-file", "-r",
        "--run", "--seed", "--repeat", "--timeout", "--memory-limit", "--shard", "--shard-timings", "--junit", "--jobs",
        "-Xhelper", "-Xoutput", "--lang", "--coverage-config-file", "--loaders", "--lua", "--state-seed",
    ]

    func read(_ name: String) throws -> String {
        try String(contentsOf: directory.url.appendingPathComponent(name), encoding: .utf8)
    }
}

extension ProcessResult {
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty }

    /// The last line of standard output: `N passed, N failed[, N skipped]`.
    var lastLine: String { lines.last ?? "" }

    /// The text report's per-test lines (`ok`, `FAIL`, `ERROR`, `SKIP`).
    var outcomeLines: [String] {
        lines.filter { line in ["ok ", "FAIL ", "ERROR ", "SKIP "].contains { line.hasPrefix($0) } }
    }
}

extension Array where Element == String {
    var dropLastEmpty: [String] { last == "" ? Array(dropLast()) : self }
}

/// Fixture files shared by several suites.
enum Fixtures {
    /// Two passing tests, one failing assertion, one error and one pending test.
    static let mixed = """
    describe("math", function()
      it("adds", function() assert.are.equal(2, 1 + 1) end)
      it("multiplies", function() assert.are.equal(6, 2 * 3) end)
      it("subtracts", function() assert.are.equal(1, 3 - 1) end)
      it("divides", function() local t = nil; return t.x end)
      pending("rounds")
    end)
    """

    static let passing = """
    describe("strings", function()
      it("concatenates", function() assert.are.equal("ab", "a" .. "b") end)
      it("repeats", function() assert.are.equal("aaa", ("a"):rep(3)) end)
    end)
    """

    /// Names with tags, for --filter, --exclude, --tags and --exclude-tags.
    static let tagged = """
    describe("cart", function()
      it("adds an item #fast", function() end)
      it("checks out #slow #network", function() end)
      describe("discounts", function()
        it("applies a coupon #fast", function() end)
      end)
    end)
    it("top level test #slow", function() end)
    """
}
