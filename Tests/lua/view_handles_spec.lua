-- host:tap and host:controlEvent take a view: it stands for the component mounted in it now,
-- the handle that survives rebuilds, as React Testing Library's element does (atk-apps2 16).
local C = ck.component("ViewTapCounter", {scope = true, initialState = 0,
  render = function(self, p, n) return ck.Stack{children = {ck.Text{text = "count " .. n},
    ck.Button{title = "+1", action = self:action("inc")}}} end,
  inc = function(self) self:updateState(function(n) return n + 1 end) end})

describe("a view as a tap's target", function()
  it("taps the same button twice across rebuilds", function()
    local h = ck.host(C); h:mount()
    local plus = h:find("Button").view
    ck.act(function() assert.are.equal(1, h:tap(plus)) end)
    ck.act(function() assert.are.equal(1, h:tap(plus)) end)
    assert.are.equal("count 2", h:find("Text").props.text)
    h:destroy()
  end)

  it("sends a control event through a view", function()
    local h = ck.host(C); h:mount()
    local plus = h:find("Button").view
    ck.act(function() assert.are.equal(1, h:controlEvent(plus, "touchUpInside")) end)
    ck.act(function() assert.are.equal(1, h:controlEvent(plus, "touchUpInside")) end)
    assert.are.equal("count 2", h:find("Text").props.text)
    h:destroy()
  end)

  it("sends nothing from a view no longer mounted, and says so as for a stale component", function()
    local Toggle = ck.component("ViewTapToggle", {scope = true, initialState = true,
      render = function(self, p, shown)
        return ck.Stack{children = {shown and ck.Button{title = "gone soon", action = self:action("hide")} or nil,
          ck.Text{text = "here"}}}
      end,
      hide = function(self) self:updateState(false) end})
    local h = ck.host(Toggle); h:mount()
    local button = h:find("Button").view
    ck.act(function() h:tap(button) end)
    assert.is_nil(h:find("Button"))
    assert.error_matches(function() h:tap(button) end, "^%[notMounted%].*not mounted any more")
    assert.error_matches(function() h:controlEvent(button, "touchUpInside") end, "^%[notMounted%]")
    h:destroy()
  end)

  it("names a view among what it takes when given something else", function()
    local h = ck.host(C); h:mount()
    assert.error_matches(function() h:tap(42) end, "^%[badArgument%].*a query string, a component or a view")
    assert.error_matches(function() h:tap(h.view) end, "^%[badArgument%].*hosting view")
    h:destroy()
  end)
end)
