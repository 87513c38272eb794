-- A controller is dead after invalidateController (SPEC §4): it is no target for actions.
local log

describe("a dead controller", function()
  ck.controller("DController", {m = function(self) log[#log + 1] = "handled" end})
  local D = ck.component("D", {scope = true, view = {class = "UIView"}})

  before_each(function() log = {} end)

  it("is no target: making or sending a target action to it raises [deadObject]", function()
    local show = true
    local h = ck.host(function() return show and D{} or nil end)
    h:mount()
    local k, c = ck.controllerOf(h.root), h.root
    local action = ck.action(k, "m")
    action:send(c)
    show = false
    h:update(nil)
    assert.is_true(k.isInvalidated)
    assert.has_error(function() action:send(c) end)
    assert.matches("^%[deadObject%]", select(2, pcall(action.send, action, c)))
    assert.matches("^%[deadObject%]", select(2, pcall(ck.action, k, "m")))
    assert.are.same({"handled"}, log)
  end)

  it("of a destroyed host is no target either", function()
    local h = ck.host(function() return D{} end)
    h:mount()
    local k, c = ck.controllerOf(h.root), h.root
    local action = ck.action(k, "m")
    h:destroy()
    assert.matches("^%[deadObject%]", select(2, pcall(action.send, action, c)))
    assert.are.same({}, log)
  end)
end)
