--- State is read-only "as props are" (SPEC §3): wherever a props view stands for its table, a
--- state view stands for its own (one predicate: Values.unwrapReadOnlyView).

ck.struct("SvtPoint", {x = "int", y = "int"})

local function host_of(state)
  local C = ck.component("SvtHolder", {scope = true, initialState = state})
  local h = ck.host(function() return C{x = 3, y = 4} end)
  return h, h.root
end

describe("a state view", function()
  it("is a \"table\" argument and a struct argument, as a props view is", function()
    local _, c = host_of({x = 1, y = 2})
    for _, view in ipairs({c.props, c.state}) do
      local got
      assert.is_true(ck.action(function(_, t) got = t end, {"table"}):send(nil, view))
      assert.are.equal(view, got)
      assert.is_true(ck.action(function(_, p) got = p end, {"SvtPoint"}):send(nil, view))
      assert.are.same({view.x, view.y}, {got.x, got.y})
    end
  end)

  it("stays the same read-only view when it comes back to Lua", function()
    local _, c = host_of({x = 1, y = 2})
    local got
    ck.action(function(_, t) got = t end, {"table"}):send(nil, c.state)
    assert.are.equal(c.state, got)
    assert.has_error(function() got.x = 5 end)
  end)

  it("is a view spec a view function may return", function()
    local A = ck.component("SvtViewState", {scope = true, initialState = {class = "UISwitch"},
      view = function(self, props, state) return state end})
    local h = ck.host(function() return A{} end)
    h:mount()
    assert.are.equal("UISwitch", h.root.view.class)
  end)

  it("is a children list, a model, host options and a list of event names", function()
    local Leaf = ck.component("SvtLeaf", {view = {class = "UIView"}})
    local List = ck.component("SvtList", {scope = true, initialState = function() return {Leaf{}, Leaf{}} end,
      render = function(self, p, s) return ck.Stack{children = s} end})
    local h = ck.host(function() return List{} end)
    assert.are.equal(2, #h:findAll("SvtLeaf"))
    local _, c = host_of({model = 7})
    local seen
    ck.host(function(m) seen = m end, c.state)
    assert.are.equal(7, seen)
    local _, names = host_of({"valueChanged"})
    assert.is_not_nil(ck.onControl(ck.action(function() end), names.state))
  end)
end)
