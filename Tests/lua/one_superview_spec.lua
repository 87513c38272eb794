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

-- A state update re-renders a scoped leaf without a view of its own: its views go where the
-- views it replaces were, or under the nearest ancestor's view when it had none (the superview
-- is no longer found by a walk to the root each update: atk-cliff 03).
describe("a re-rendered leaf without a view of its own", function()
  local Leaf = ck.component("ShowsWhat", {scope = function(p) return p.id end, initialState = "none",
    show = function(self, sender, what) self:updateState(what, "sync") end,
    render = function(self, p, what)
      if what == "none" then return nil end
      if what == "two" then return ck.Stack{children = {ck.Text{text = p.id .. "1"}, ck.Text{text = p.id .. "2"}}} end
      return ck.Text{text = p.id .. what}
    end})
  local Hop; Hop = ck.component("HopsTo", {render = function(self, p)
    if p.depth > 0 then return Hop{depth = p.depth - 1, id = p.id} end
    return Leaf{id = p.id}
  end})
  local Box = ck.component("BoxOf", {view = {class = "UIView"},
    render = function(self, p) return ck.Stack{children = p.kids} end})

  local function texts(view, out)
    out = out or {}
    for _, s in ipairs(view.subviews) do
      assert.is_true(rawequal(s.superview, view))
      if s.attributes and s.attributes.text then out[#out + 1] = s.attributes.text end
      texts(s, out)
    end
    return out
  end

  it("places its views among its siblings', in order, from none to some and back", function()
    local h = ck.host(function()
      return ck.Stack{children = {ck.Text{text = "before"}, Box{kids = {ck.Text{text = "first"},
        Hop{depth = 30, id = "a"}, ck.Text{text = "mid"}, Hop{depth = 3, id = "b"}, ck.Text{text = "last"}}}}}
    end)
    h:mount()
    local box = h:find("BoxOf").view
    local a, b = h:find("ShowsWhat#a").scope.component, h:find("ShowsWhat#b").scope.component
    assert.are.same({"first", "mid", "last"}, texts(box))
    h:find("ShowsWhat#a"):updateState("x", "sync")
    assert.are.same({"first", "ax", "mid", "last"}, texts(box))
    h:find("ShowsWhat#b"):updateState("two", "sync")
    assert.are.same({"first", "ax", "mid", "b1", "b2", "last"}, texts(box))
    h:find("ShowsWhat#a"):updateState("y", "sync")
    assert.are.same({"first", "ay", "mid", "b1", "b2", "last"}, texts(box))
    h:find("ShowsWhat#b"):updateState("z", "sync")
    assert.are.same({"first", "ay", "mid", "bz", "last"}, texts(box))
    h:find("ShowsWhat#a"):updateState("none", "sync")
    assert.are.same({"first", "mid", "bz", "last"}, texts(box))
    assert.is_nil(a.view)
    assert.is_nil(b.view)
  end)
end)
