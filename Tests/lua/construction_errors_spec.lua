-- SPEC §3: an initialState that raises fails the build that constructed the component;
-- [buildFailed] names the initialState and its scope, not the render that called Class(props).

describe("a construction that raises", function()
  local function failing(name, field)
    local def = {scope = true}
    def[field] = function() error("boom in " .. field) end
    return ck.component(name, def)
  end

  it("names the initialState and its scope at a host's first build", function()
    local S = failing("CEFirstInitial", "initialState")
    local P = ck.component("CEFirstParent", {scope = true, render = function() return S{} end})
    local ok, err = pcall(ck.host, function() return P{} end)
    assert.is_false(ok)
    assert.matches("^%[buildFailed%] [^\n]*raised in the initialState of CEFirstParent/CEFirstInitial;", err)
    assert.matches("\n[^\n]*construction_errors_spec.lua:%d+: boom in initialState\n", err)
  end)

  it("names the initialState, not its parent's render, at a later build", function()
    local S = failing("CELaterInitial", "initialState")
    local Q = ck.component("CELaterParent", {scope = true, initialState = false,
      render = function(self, props, shown) if shown then return S{} end end})
    local host = ck.host(function() return Q{} end)
    host:mount()
    local ok, err = pcall(function() host.root:updateState(true, "sync") end)
    assert.is_false(ok)
    assert.matches("^%[buildFailed%] [^\n]*raised in the initialState of CELaterParent/CELaterInitial;", err)
    assert.is_nil(err:find("render of CELaterParent", 1, true), err)
    assert.matches("\n[^\n]*construction_errors_spec.lua:%d+: boom in initialState\n", err)
    host:destroy()
  end)

  it("names the parent's render again once the construction is done", function()
    local S = ck.component("CEFine", {scope = true, initialState = function() return 0 end})
    local P = ck.component("CEAfterParent", {render = function() local s = S{} error("boom after") end})
    local ok, err = pcall(ck.host, function() return P{} end)
    assert.is_false(ok)
    assert.matches("^%[buildFailed%] [^\n]*raised in the render of CEAfterParent;", err)
  end)
end)
