-- A send from a component whose host is gone says how it went: destroyed and collected, or
-- only dropped and collected (atk-perf14 02: a host never destroyed was said to be destroyed).
describe("a send from a component of a host that is gone", function()
  local P = ck.component("GoneHostP", {scope = true, initialState = 0, render = function()
    return ck.Button{title = "b"}
  end})
  function P:ping() end

  local function sendFromRootOfGoneHost(destroy)
    local h = ck.host(function() return P{} end)
    h:mount()
    local root = h.root
    h:unmount()
    if destroy then h:destroy() end
    h = nil
    collectgarbage(); collectgarbage()
    local ok, err = pcall(function() return ck.action("ping"):send(root) end)
    return ok, err
  end

  it("says the host was collected when it was only dropped", function()
    local ok, err = sendFromRootOfGoneHost(false)
    assert.is_false(ok)
    assert.matches("%[notMounted%].*its host is gone %(collected: no variable held it%)", err)
  end)

  it("says the host was destroyed when it was", function()
    local ok, err = sendFromRootOfGoneHost(true)
    assert.is_false(ok)
    assert.matches("%[notMounted%].*its host is gone %(destroyed, and collected%)", err)
  end)
end)
