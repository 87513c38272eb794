import CKTestHelpers
import Testing

@Suite("ckrun test: --filter, --exclude, --tags, --list and empty runs")
struct TestRunnerSelectionTests {
    let fixture: TestRunnerFixture

    init() throws {
        fixture = try TestRunnerFixture(["cart_spec.lua": Fixtures.tagged, "strings_spec.lua": Fixtures.passing])
    }

    private func names(_ arguments: String...) throws -> [String] {
        let result = try fixture.test(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.outcomeLines.map { String($0.dropFirst(6)) }
    }

    @Test func listPrintsFileLineAndFullNameWithoutRunning() throws {
        let result = try fixture.test("--list")
        #expect(result.status == 0)
        #expect(result.lines == [
            "cart_spec.lua:2: cart adds an item #fast",
            "cart_spec.lua:3: cart checks out #slow #network",
            "cart_spec.lua:5: cart discounts applies a coupon #fast",
            "top level test #slow",   // busted's: the main chunk registered it
            "strings_spec.lua:2: strings concatenates",
            "strings_spec.lua:3: strings repeats",
        ])
    }

    @Test func filterKeepsTestsWhoseFullNameMatchesAnyPattern() throws {
        #expect(try names("--filter", "^cart d") == ["cart_spec.lua:5: cart discounts applies a coupon #fast"])
        #expect(try names("--filter", "repeats", "--filter", "coupon") == [
            "cart_spec.lua:5: cart discounts applies a coupon #fast",
            "strings_spec.lua:3: strings repeats",
        ])
    }

    @Test func excludeWinsOverFilter() throws {
        #expect(try names("--filter", "^cart", "--exclude", "coupon", "--exclude", "checks") == [
            "cart_spec.lua:2: cart adds an item #fast",
        ])
    }

    @Test func tagsSelectTestsWithAnyTagAndExcludedTagsWin() throws {
        #expect(try names("--tags", "fast") == [
            "cart_spec.lua:2: cart adds an item #fast",
            "cart_spec.lua:5: cart discounts applies a coupon #fast",
        ])
        #expect(try names("--tags", "network,fast", "--exclude-tags", "slow") == [
            "cart_spec.lua:2: cart adds an item #fast",
            "cart_spec.lua:5: cart discounts applies a coupon #fast",
        ])
        #expect(try names("--exclude-tags", "fast,slow") == [
            "strings_spec.lua:2: strings concatenates",
            "strings_spec.lua:3: strings repeats",
        ])
    }

    @Test func listAppliesTheSameSelection() throws {
        let result = try fixture.test("--list", "--tags", "slow")
        #expect(result.lines == ["cart_spec.lua:3: cart checks out #slow #network", "top level test #slow"])
    }

    /// SPEC §9 (and busted): exit 1 only if a test failed; a run where nothing matched says so.
    @Test func noMatchingTestSucceedsWithANote() throws {
        let none = try fixture.test("--filter", "nothing matches this")
        #expect(none.status == 0)
        #expect(none.lastLine == "0 passed, 0 failed")
        #expect(none.stderr.contains("no tests matched"))

        let quiet = try fixture.test("--filter", "nothing matches this", "--pass-with-no-tests")
        #expect(quiet.status == 0)
        #expect(quiet.lastLine == "0 passed, 0 failed")
        #expect(!quiet.stderr.contains("no tests matched"))
    }

    /// busted 2.1.1 fails a run that finds no test file (exit 1, "No test files found matching
    /// Lua pattern: _spec"); --pass-with-no-tests, ckrun's own, lets it succeed.
    @Test func aFolderWithoutTestFilesFailsAsBustedDoes() throws {
        let empty = try TestRunnerFixture(["notes.txt": "nothing here", "helper.lua": "return 1"])
        for arguments in [[], ["--jobs", "2"]] {
            let result = try empty.test(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.contains("No test files found matching Lua pattern: _spec"), "\(result.stdout)")
            #expect(result.lastLine == "0 passed, 1 failed")
            // The run's own error is named as such, and is neither a test nor a file.
            #expect(result.outcomeLines == ["ERROR (the run)"], "\(result.stdout)")
            #expect(result.stdout.contains("1) ERROR (the run)\n   No test files found"), "\(result.stdout)")
            #expect(result.stdout.contains("Ran 0 tests from 0 files in "), "\(result.stdout)")
        }
        let json = try empty.test("-o", "json", "-p", "check")
        #expect(json.status == 1)
        // Named as every report names the run's own errors (busted's JSON left the name blank).
        #expect(json.stdout.contains(#""message":"No test files found matching Lua pattern: check","name":"(the run)""#), "\(json.stdout)")
        let quiet = try empty.test("--pass-with-no-tests")
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty)
        let listing = try empty.test("--list")
        #expect(listing.status == 1 && listing.stderr.contains("No test files found matching Lua pattern: _spec"))
    }
}
