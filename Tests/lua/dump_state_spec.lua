-- What host:dump() (so assert.tree_snapshot, ckrun tree) writes of a state (outsider attack,
-- real apps, breaks 03 and 08): the state whole, and a read-only props or state view as the
-- table it stands for, never its address.
describe("host:dump() of a state", function()
  local function mounted(cls)
    local h = ck.host(function() return cls{} end)
    h:mount()
    return h
  end

  it("shows the state after the React habit updateState(self.state)", function()
    local App = ck.component("InPlace", {scope = true, initialState = {items = {}},
      render = function() return nil end})
    local h = mounted(App)
    local c = h:find("InPlace")
    table.insert(c.state.items, "x")
    c:updateState(c.state)
    ck.flush()
    assert.are.equal('InPlace state={items = {"x"}}\n', h:dump())
    h:destroy()
  end)

  it("shows a state made from props (initialState = function(props) return props end)", function()
    local Field = ck.component("Field", {scope = true, initialState = function(props) return props end,
      render = function() return nil end})
    local h = ck.host(function() return Field{value = 3, nested = {a = 1}} end)
    assert.are.equal("Field state={nested = {a = 1}, value = 3}\n", h:dump())
    h:destroy()
  end)

  it("shows a view kept inside a state table, and a table inside itself as <cycle>", function()
    local S = ck.component("S", {scope = true, render = function() return nil end,
      initialState = function(props) local t = {p = props}; t.me = t; return t end})
    local h = ck.host(function() return S{n = 1} end)
    assert.are.equal("S state={me = <cycle>, p = {n = 1}}\n", h:dump())
    h:destroy()
  end)

  it("writes the whole state: every entry and every level", function()
    local items = {}
    for i = 1, 25 do items[i] = i end
    local S = ck.component("S", {scope = true, render = function() return nil end,
      initialState = function() return {items = items, a = {b = {c = {d = "deep"}}}} end})
    local h = mounted(S)
    local text = h:dump()
    assert.truthy(text:find(", 24, 25}", 1, true), text)
    assert.truthy(text:find('a = {b = {c = {d = "deep"}}}', 1, true), text)
    assert.falsy(text:find("…", 1, true), text)
    assert.truthy(h:dump{depth = 2, width = 20}:find('state={a = {b = {…}}, items = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, …}}', 1, true))
    assert.error_matches(function() h:dump{depth = 0} end, "options.depth must be at least 1")
    h:destroy()
  end)

  it("writes a state 20,000 tables deep whole, in one pass", function()
    local chain = {"bottom"}
    for _ = 1, 20000 do chain = {chain} end
    local S = ck.component("S", {scope = true, render = function() return nil end,
      initialState = function() return chain end})
    local h = mounted(S)
    local text = h:dump()
    assert.are.equal(20001, select(2, text:gsub("{", "")))
    assert.truthy(text:find('{"bottom"}', 1, true), text:sub(1, 200))
    h:destroy()
  end)

  it("keeps a view stored as state live after the component it came from is gone", function()
    local kept
    local Source = ck.component("Source", {scope = true, initialState = function() return {items = {1, 2}} end,
      render = function(self, p, s) kept = s; return nil end})
    local Sink = ck.component("Sink", {scope = true, render = function() return nil end})
    local Root = ck.component("Root", {scope = true, initialState = {source = true},
      render = function(self, p, s) return ck.Stack{children = {s.source and Source{} or nil, Sink{}}} end})
    local h = mounted(Root)
    h:find("Sink"):updateState(kept)
    h:find("Root"):updateState({source = false})
    ck.flush()
    kept = nil
    collectgarbage(); collectgarbage()
    assert.is_nil(h:find("Source"))
    assert.are.equal(2, h:find("Sink").state.items[2])
    assert.truthy(h:dump():find("Sink state={items = {1, 2}}", 1, true))
    h:destroy()
  end)
end)

describe("a failed assert.same", function()
  it("shows a view inside a table by its contents, not its address", function()
    local got
    local S = ck.component("S", {render = function(self, p) got = {p = p}; return nil end})
    local h = ck.host(function() return S{n = 1} end)
    local ok, err = pcall(assert.same, {p = {n = 2}}, got)
    assert.is_false(ok)
    local message = tostring(type(err) == "table" and err.message or err)
    assert.falsy(message:find("read-only props: 0x", 1, true), message)
    assert.truthy(message:find("[n] = 1", 1, true), message)
    h:destroy()
  end)
end)
