import CKTestHelpers
import Foundation
import Testing

/// ckrun's own Lua that runs after a script may have (the test runner's preludes, the searcher
/// beside the script) reads the standard library as it was at start (`local _ENV = pristine`):
/// a script's `ipairs = nil` or `_G.math = nil` is its own business, as busted's captured locals
/// make it there.
@Suite("ckrun's own Lua reads the library as it was at start")
struct PristineLibraryTests {
    /// A test's error that is a table is shown by the runner's formatter: with `math`, `rawlen`,
    /// `getmetatable`, `pcall` or `ipairs` removed it said "conversion to text failed:
    /// (ckrun test: format):46: attempt to index a nil value". busted counts the same.
    @Test func aTableErrorIsShownWhateverTheSpecRemoved() throws {
        let fixture = try TestRunnerFixture(["g_spec.lua": """
            describe("d", function()
              it("e", function() error({code = 1, list = {1, 2}}) end)
              it("a", function() end)
            end)
            _G.math, _G.rawlen, _G.getmetatable, _G.pcall, _G.ipairs = nil, nil, nil, nil, nil
            """])
        let r = try fixture.test("g_spec.lua")
        #expect(r.status == 1 && r.lastLine == "1 passed, 1 failed", "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("{ code = 1, list = { 1, 2 } }"), "\(r.stdout)")
        #expect(!r.stdout.contains("(ckrun test"), "\(r.stdout)")
    }

    /// `require` beside the script (SPEC §9) after the script removed what the searcher used:
    /// "(searcher):13: attempt to call a nil value (global 'ipairs')".
    @Test func theSearcherBesideTheScriptWorksWhateverTheScriptRemoved() throws {
        let dir = try TemporaryDirectory()
        try dir.write("lib/helper.lua", "return 'helper'")
        let main = try dir.write("lib/main.lua", """
            ipairs, io, loadfile, error, table = nil, nil, nil, nil, nil
            string.format, string.gsub = nil, nil
            print((require("helper")))
            print(select(2, pcall(require, "missing")):match("no file '[^']*missing.lua' %(beside the script") ~= nil)
            """)
        let r = try Ckrun.run([main.path], directory: dir.url)
        #expect(r.status == 0 && r.stdout == "helper\ntrue\n", "\(r.stdout)\(r.stderr)")
    }
}
