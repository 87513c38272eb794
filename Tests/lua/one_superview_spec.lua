-- A view is in the subviews of one view, the one it names as its superview (the outsider's
-- attack on ComponentKit semantics, break 07; UIKit's addSubview takes a view from its old superview).

describe("a view", function()
  local N = ck.component("PlaceN", {scope = function(p) return p.id end,
    view = function(self, p) return {class = p.cls or "UIView"} end,
    render = function(self, p) return p.kids and ck.Stack{children = p.kids} or nil end})

  local function inSubviewsOfItsSuperviewOnly(views)
    for _, v in ipairs(views) do
      for _, s in ipairs(v.subviews) do assert.is_true(rawequal(s.superview, v)) end
    end
  end

  it("leaves the subviews of the view its parent gave up for one of another class", function()
    local cls = "UIView"
    local h = ck.host(function() return N{id = "P", cls = cls, kids = {N{id = "A"}, N{id = "B"}}} end)
    h:mount()
    local old = h:find("PlaceN#P").view
    cls = "UIScrollView"; h:update(nil)
    assert.are.equal(0, #old.subviews)
    assert.are.equal(2, #h:find("PlaceN#P").view.subviews)
  end)

  it("leaves the subviews of an unmounted view", function()
    local show = true
    local h = ck.host(function()
      return N{id = "P", kids = {show and N{id = "A", kids = {N{id = "A1"}}} or nil, N{id = "B"}}}
    end)
    h:mount()
    local p, a = h:find("PlaceN#P").view, h:find("PlaceN#A").view
    show = false; h:update(nil)
    assert.are.equal(0, #a.subviews)
    assert.are.equal(1, #p.subviews)
    h:unmount()
    assert.are.equal(0, #p.subviews)
    inSubviewsOfItsSuperviewOnly({p, a, h.view})
  end)
end)
