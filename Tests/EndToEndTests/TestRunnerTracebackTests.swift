import CKTestHelpers
import Testing

/// A test that a handler's or a controller callback's error ended reports the traceback taken
/// where it raised: the report showed only the test's frames (`[C]: in method 'send'`), never
/// the handler's or callback's, so the failing line could not be found (atk-ck3 12).
@Suite("ckrun test: a handler's or callback's error reports its own frames")
struct TestRunnerTracebackTests {
    static let spec = #"""
    local function helper() error("deep fail") end
    it("handler raises", function()
      local C = ck.component("C", {scope = true, m = function(self) helper() end})
      local h = ck.host(function() return C{} end); h:mount()
      h.root:action("m"):send(h.root)
    end)
    it("callback raises", function()
      ck.controller("DController", {didMount = function(self) helper() end})
      local D = ck.component("D", {scope = true})
      local h = ck.host(function() return D{} end); h:mount()
    end)
    """#

    @Test(arguments: ["1", "2"])
    func handlerAndCallbackFramesAreInTheReport(_ jobs: String) throws {
        let fixture = try TestRunnerFixture(["af_spec.lua": Self.spec])
        let out = try fixture.test("--jobs", jobs).stdout
        let helperFrames = out.components(separatedBy: "af_spec.lua:1: in upvalue 'helper'").count - 1
        #expect(helperFrames == 2, "\(out)")
        #expect(out.contains("af_spec.lua:3: in function <af_spec.lua:3>"), "\(out)")
        #expect(out.contains("af_spec.lua:8: in function <af_spec.lua:8>"), "\(out)")
        #expect(out.contains("[actionFailed] C.m of C (handling \"m\") raised:"), "\(out)")
        #expect(out.contains("[callbackFailed] DController.didMount of D raised: af_spec.lua:1: deep fail"), "\(out)")
        #expect(!out.contains("(ckrun test"), "the runner's own frames stay out: \(out)")
    }
}
