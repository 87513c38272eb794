-- An update for a scope that left the tree is dropped (SPEC §3); a timer that outlived its
-- component would drop them silently for ever, so the first one from each line warns
-- `[updateAfterUnmount]` (React's "state update on an unmounted component"; atk-apps 06).
local warnings = require("captured_warnings")

local Ticker = ck.component("LeakyTicker", {scope = true, initialState = 0,
  render = function(self, p, n) return ck.Text{text = "t" .. n} end})
ck.controller("LeakyTickerController", {didMount = function(self)
  local function tick()
    self.component:updateState(function(n) return n + 1 end)   -- line 10
    ck.after(1, tick)
  end
  ck.after(1, tick)
end})
local App = ck.component("LeakyApp", {scope = true, initialState = true,
  render = function(self, p, show) return ck.Stack{children = {
    show and Ticker{}, ck.Button{title = "hide", action = self:action("hide")}}} end,
  hide = function(self) self:updateState(false, "sync") end})

describe("an update of a scope that left the tree", function()
  it("is dropped, and the first from its line warns where, whose and what to do", function()
    local host = ck.host(App); host:mount()
    local seen = warnings(function()
      ck.advance(2)
      host:tap("Button")
      ck.advance(5)
    end)
    assert.are.equal(1, #seen)
    assert.matches("^%[updateAfterUnmount%] Tests/lua/unmounted_updates_spec.lua:10: LeakyTicker:updateState on LeakyApp/Stack/LeakyTicker", seen[1])
    assert.matches("invalidateController", seen[1])
    assert.is_nil(host:find("LeakyTicker"))
    host:destroy()
  end)

  it("warns nothing for a scope still in the tree", function()
    local host = ck.host(App); host:mount()
    assert.are.same({}, warnings(function() ck.advance(3) end))
    assert.are.equal(3, host:find("LeakyTicker").state)
    host:destroy()
  end)
end)
