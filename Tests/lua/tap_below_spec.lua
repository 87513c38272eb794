-- host:tap(query) taps the first view at or below what the query finds; when that view sends
-- nothing and views below it would, it says which, each with a query that taps it (atk-apps:
-- `.tap Row#a` tapped the row's label, "0 actions sent", no hint).
local warnings = require("captured_warnings")

local Row = ck.component("TapRow", {
  render = function(self, p)
    return ck.Stack{direction = "horizontal", children = {
      ck.Text{text = p.label},
      ck.Button{title = "+", action = p.bump},
      ck.Button{title = "x", action = p.bump},
    }}
  end,
})
local List = ck.component("TapList", {scope = true, initialState = 0,
  render = function(self, p, n)
    return ck.Stack{children = {
      Row{key = "a", label = "a", bump = self:action("bump")},
      ck.Text{text = "n=" .. n},
    }}
  end,
  bump = function(self) self:updateState(function(n) return n + 1 end) end,
})

describe("host:tap on a component whose first view sends nothing", function()
  it("sends nothing and names the views below that would, with their queries", function()
    local host = ck.host(List); host:mount()
    local sent
    local seen = warnings(function() sent = host:tap("TapRow#a") end)
    assert.are.equal(0, sent)
    assert.are.equal(1, #seen)
    assert.matches("^%[nothingTapped%] Tests/lua/tap_below_spec.lua:%d+: tap%(\"TapRow#a\"%) tapped the first view", seen[1])
    assert.matches("\"TapRow#a > Stack > Button\", \"TapRow#a > Stack > Button%[2%]\"", seen[1])
    assert.are.equal(1, host:tap("TapRow#a > Stack > Button[2]"))
    host:flush()
    assert.are.equal(1, host.root.state)
    host:destroy()
  end)

  it("warns the same when given the component (what find returns) for the query", function()
    -- atk-new2 03: host:tap(component) sent 0 and said nothing where host:tap(query) warned.
    local host = ck.host(List); host:mount()
    local sent
    local seen = warnings(function() sent = host:tap(host:find("TapRow#a")) end)
    assert.are.equal(0, sent)
    assert.are.equal(1, #seen)
    assert.matches("^%[nothingTapped%] Tests/lua/tap_below_spec.lua:%d+: tap%(\"TapList > Stack > TapRow#a\"%) tapped the first view", seen[1])
    local named = seen[1]:match('"(TapList > Stack > TapRow#a > Stack > Button)"')
    assert.is_not_nil(named)
    assert.are.equal(1, host:tap(named))
    host:destroy()
  end)

  it("says nothing when nothing below could be tapped", function()
    local host = ck.host(List); host:mount()
    local seen = warnings(function() assert.are.equal(0, host:tap("TapList > Stack > Text")) end)
    assert.are.same({}, seen)
    host:destroy()
  end)
end)
