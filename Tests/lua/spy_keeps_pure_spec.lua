-- A spy on a class's render (luassert's spy.on: a callable table calling the old function)
-- observes without changing what it measures: kept pure instances stay kept (atk-apps2 11).
local Row = ck.component("SpyMemoRow", {pure = true, render = function(self, p) return ck.Text{text = p.label} end})
local List = ck.component("SpyMemoList", {scope = true, initialState = {"a", "b", "c"},
  render = function(self, p, s)
    local ch = {}
    for i, l in ipairs(s) do ch[i] = Row{key = l, label = l} end
    return ck.Stack{children = ch}
  end,
  add = function(self) self:updateState(function(s) local t = {table.unpack(s)} t[#t + 1] = "d" return t end) end})

describe("spying on render after the host exists", function()
  it("counts only the new row's render (arrange, spy, act)", function()
    local h = ck.host(List); h:mount()
    local s = spy.on(Row, "render")
    ck.act(function() h.root:add() end)
    assert.spy(s).was.called(1)
    s:revert()
    -- Reverting puts the old function back: still nothing to re-render.
    local texts = {}
    ck.act(function() h:update() end)
    for _, t in ipairs(h:findAll("Text")) do texts[#texts + 1] = t.props.text end
    assert.are.same({"a", "b", "c", "d"}, texts)
    h:destroy()
  end)

  it("a stub is new code: every row renders with it", function()
    local h = ck.host(List); h:mount()
    local st = stub(Row, "render").invokes(function() return ck.Text{text = "stubbed"} end)
    ck.act(function() h:update() end)
    assert.stub(st).was.called(3)
    st:revert()
    h:destroy()
  end)
end)
