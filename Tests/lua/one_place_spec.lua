-- One component instance or scope is in exactly one place, in one host (the outsider's attack
-- on ComponentKit semantics, breaks 10 and 15): every placement passes one check.

-- Raises `[badReturn]` with `text` in its message.
local function fails(text, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  assert.truthy(tostring(err):find("[badReturn]", 1, true), tostring(err))
  assert.truthy(tostring(err):find(text, 1, true), tostring(err))
end

describe("an instance placed twice", function()
  it("is [badReturn] when two renders return one scoped instance", function()
    local W = ck.component("PlaceW", {render = function(self, p) return p.c end})
    local S = ck.component("PlaceS", {scope = true, initialState = 0, view = {class = "UIView"}})
    fails("PlaceS was placed in the tree twice", ck.host, function()
      local s = S{}
      return ck.Stack{children = {W{c = s}, W{c = s}}}
    end)
  end)

  -- Built again, the render's own instance nested a million deep ([treeTooDeep], outsider break 11).
  it("is [badReturn] at once when a render returns itself or an ancestor", function()
    local Self = ck.component("PlaceSelf", {render = function(self) return self end})
    fails("PlaceSelf was placed in the tree twice (again at PlaceSelf/PlaceSelf, in what the render of PlaceSelf returned)",
      ck.host, function() return Self{} end)
    local Up = ck.component("PlaceUp", {render = function(self, p) return p.parent end})
    local Top = ck.component("PlaceTop", {render = function(self) return ck.Stack{children = {Up{parent = self}}} end})
    fails("PlaceTop was placed in the tree twice (again at PlaceTop/Stack/PlaceUp/PlaceTop, in what the render of PlaceUp returned)",
      ck.host, function() return Top{} end)
  end)

  it("is [badReturn] when an instance of an earlier build stands in two places", function()
    local S = ck.component("PlaceEarlier", {scope = true, initialState = 0})
    local keep, twice
    local h = ck.host(function()
      keep = keep or S{}
      if twice then
        return ck.Stack{children = {ck.View{class = "UIView", child = keep}, ck.View{class = "UIView", child = keep}}}
      end
      return keep
    end)
    twice = true
    fails("PlaceEarlier was placed in the tree twice", h.update, h, nil)
  end)

  it("is [badReturn] when a render returns an instance a kept subtree holds", function()
    local X
    local S = ck.component("PlaceHeld", {scope = true, initialState = 0})
    local Pure = ck.component("PlacePure", {pure = true, render = function(self, p) return p.x end})
    local R = ck.component("PlaceR", {render = function(self, p) return p.x end})
    local both = false
    local h = ck.host(function()
      X = X or S{key = "x"}
      return ck.Stack{children = {Pure{x = X}, both and R{x = X} or nil}}
    end)
    both = true
    fails("PlaceHeld was placed in the tree twice", h.update, h, nil)
    assert.are.equal(1, #h:findAll("PlaceHeld"))
  end)
end)

describe("an instance a render returns again", function()
  it("is [badReturn] when the place it had stays (a state build leaves that parent as it was)", function()
    local X
    local S = ck.component("PlaceLeft", {scope = true, initialState = 0, view = {class = "UIView"}})
    local C = ck.component("PlaceC", {scope = true, initialState = false,
      render = function(self, p, s) if s then return p.x end end})
    local D = ck.component("PlaceD", {scope = true, render = function(self, p) return p.x end})
    local h = ck.host(function() X = X or S{}; return ck.Stack{children = {C{x = X}, D{x = X}}} end)
    h:mount()
    fails("PlaceLeft was placed in the tree twice", function() h:find("PlaceC"):updateState(true, "sync") end)
    assert.are.equal(1, #h:findAll("PlaceLeft"))
  end)

  it("moves when the place it had goes", function()
    local X
    local S = ck.component("PlaceMoved", {scope = true, initialState = 0, view = {class = "UIView"}})
    local W = ck.component("PlaceWrap", {render = function(self, p) return p.x end})
    local first = true
    local h = ck.host(function()
      X = X or S{}
      return ck.Stack{children = {first and W{x = X} or ck.View{class = "UIView", child = X}}}
    end)
    h:mount()
    local view = h:find("PlaceMoved").view
    first = false; h:update(nil)
    assert.are.equal(1, #h:findAll("PlaceMoved"))
    assert.is_true(rawequal(view, h:find("PlaceMoved").view))
  end)
end)

describe("another host's instance", function()
  it("is [badReturn] when scoped, and leaves that host whole", function()
    local stash
    local S = ck.component("PlaceShared", {scope = true, initialState = "A's",
      render = function(self, p, s) return ck.Text{text = s} end})
    local A = ck.component("PlaceA", {render = function() stash = S{}; return stash end})
    local ha = ck.host(function() return A{} end)
    ha:mount()
    fails("PlaceShared belongs to another host", ck.host, function() return stash end)
    assert.are.equal(1, #ha.view.subviews)
    assert.are.equal("A's", ha:find("PlaceShared").state)
  end)

  it("is [badReturn] when scoped and never placed there", function()
    local stash
    local S = ck.component("PlaceUnplaced", {scope = true})
    local A = ck.component("PlaceA2", {render = function() stash = S{}; return nil end})
    ck.host(function() return A{} end)
    fails("PlaceUnplaced belongs to another host", ck.host, function() return stash end)
  end)

  it("stands for a new instance when unscoped: each host keeps its own view", function()
    local T
    local B = ck.component("PlaceB", {render = function() T = ck.Text{text = "hi"}; return T end})
    local hb = ck.host(function() return B{} end)
    hb:mount()
    local hc = ck.host(function() return T end)
    hc:mount()
    assert.are.equal(1, #hb.view.subviews)
    assert.are.equal(1, #hc.view.subviews)
    assert.is_false(rawequal(hc.root, T))
    assert.is_false(rawequal(hb.view.subviews[1].subviews[1], hc.view.subviews[1]))
  end)
end)
