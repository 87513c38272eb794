import CKTestHelpers
import Foundation
import Testing

/// Where the runtime makes text of a script's value behind its back, no script code runs outside
/// the limits (the outsider's break 04: a key's `__tostring` ran to sort a view's attributes, and
/// a handler's error object's `__tostring` ran in Swift mode, past --memory-limit).
@Suite("Text made of script values, under the limits")
struct ScriptTextLimitsTests {
    @Test func attributeKeysAreOrderedWithoutTheirTostring() throws {
        let r = try Ckrun.run(["-e", """
            local calls = 0
            local mt = {__tostring = function() calls = calls + 1 while true do end end}
            local k1, k2 = setmetatable({}, mt), setmetatable({}, mt)
            local function tap() return ck.onTap(ck.action(function() end)) end
            local V = ck.component("V", {view = {class = "UIButton", attributes = {[k1] = tap(), [k2] = tap(), b = tap(), a = tap()}}})
            ck.host(V)
            print("built", calls)
            """], timeout: 20)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "built\t0\n")
    }

    @Test func anErrorObjectsTostringRunsUnderTheMemoryLimit() throws {
        let r = try Ckrun.run(["--memory-limit", "20", "-e", """
            local obj = setmetatable({}, {__tostring = function() local t = {} for i = 1, 2e6 do t[i] = {i} end return "T" end})
            local a = ck.action(function() error(obj) end)
            local ok, e = pcall(a.send, a, nil)
            print(ok, rawequal(e, obj), collectgarbage("count") < 24 * 1024)
            """], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "false\ttrue\ttrue\n")
    }
}
