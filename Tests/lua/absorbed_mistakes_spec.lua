-- A script's mistake that ckrun used to absorb in silence (outsider's ComponentKit attack,
-- SPEC ambiguities): each is now said, with its id, where and what to do.

local function warnings(body)
  local seen, before = {}, ck.config.onWarning
  ck.config.onWarning = function(m) seen[#seen + 1] = m end
  local ok, err = pcall(body)
  ck.config.onWarning = before
  assert(ok, err)
  return seen
end

describe("ck.config", function()
  after_each(function() ck.config.unhandledAction = "error" end)

  it("cannot be replaced by a table nothing reads; its fields can be set", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(function() ck.config = {unhandledAction = "warn"} end)
    assert.is_false(ok)
    assert.are.equal("[badArgument] Tests/lua/absorbed_mistakes_spec.lua:" .. line .. ": ck.config cannot be replaced "
      .. "(given table): the runtime reads its settings from ck.config itself, never from a new table; set its "
      .. 'fields instead, e.g. ck.config.unhandledAction = "warn"', err)
    ck.config.unhandledAction = "ignore"
    local h = ck.host(function() return ck.Button{title = "b", action = ck.action("nobodyHandles")} end)
    h:mount()
    assert.has_no.errors(function() h:tap("Button") end)
    h:destroy()
  end)

  it("refuses nil too, and takes itself back (busted's mock(ck) assigns every field again)", function()
    assert.matches("^%[badArgument%] .*ck.config cannot be replaced %(given nil%)", select(2, pcall(function() ck.config = nil end)))
    local config = ck.config
    ck.config = ck.config
    assert.are.equal(config, ck.config)
    ck.scriptHelper = 1
    assert.are.equal(1, ck.scriptHelper)
    ck.scriptHelper = nil
  end)
end)

