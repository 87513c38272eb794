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
            "cart_spec.lua:8: top level test #slow",
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
        let result = try fixture.test("--list", "--tags", "#slow")
        #expect(result.lines == ["cart_spec.lua:3: cart checks out #slow #network", "cart_spec.lua:8: top level test #slow"])
    }

    @Test func noMatchingTestIsAnErrorUnlessAllowed() throws {
        let none = try fixture.test("--filter", "nothing matches this")
        #expect(none.status == 1)
        #expect(none.lastLine == "0 passed, 0 failed")
        #expect(none.stderr.contains("no tests matched"))
        #expect(none.stderr.contains("--pass-with-no-tests"))

        let allowed = try fixture.test("--filter", "nothing matches this", "--pass-with-no-tests")
        #expect(allowed.status == 0)
        #expect(allowed.lastLine == "0 passed, 0 failed")
    }

    @Test func aFolderWithoutTestFilesIsAnErrorToo() throws {
        let empty = try TestRunnerFixture(["notes.txt": "nothing here"])
        let result = try empty.test()
        #expect(result.status == 1)
        #expect(result.stderr.contains("no test files"))
        #expect(try empty.test("--pass-with-no-tests").status == 0)
    }
}
