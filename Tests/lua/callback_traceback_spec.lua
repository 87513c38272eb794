-- A controller callback's error reaches the caller as [callbackFailed] with the callback's own
-- message and the traceback taken where it raised, in the error value itself, as [buildFailed]
-- carries the render's (atk-ck3 12: the value was one line).

describe("[callbackFailed]", function()
  it("carries the callback's traceback", function()
    local function helper() error("cb fails") end
    ck.controller("TracedController", {didMount = function(self) helper() end})
    local T = ck.component("Traced", {scope = true})
    local h = ck.host(function() return T{} end)
    local ok, err = pcall(h.mount, h)
    assert.is_false(ok)
    assert.matches("^%[callbackFailed%] TracedController%.didMount of Traced raised: [^\n]*: cb fails\nstack traceback:\n", err)
    assert.matches("callback_traceback_spec%.lua:%d+: in upvalue 'helper'", err)
    assert.matches("callback_traceback_spec%.lua:%d+: in function <[^>]*callback_traceback_spec%.lua:%d+>", err)
  end)
end)
