-- Props are read-only (issue 16): Lua gets a view of a component's props that reads through to
-- the table it was built with and refuses writes with [immutableComponent] at the writer's line.

local function refusal(f)
  local ok, err = pcall(f)
  assert.is_false(ok, "the write went through")
  return tostring(err)
end

local function line_of(marker)
  local n = 0
  for l in io.lines(debug.getinfo(1, "S").short_src) do
    n = n + 1
    if l:find(marker, 1, true) and not l:find("line_of", 1, true) then return n end
  end
end

describe("props views", function()
  it("refuse a write to c.props, naming the class and the writer's file:line", function()
    local Card = ck.component("PropsCard", {render = function(_, p) return ck.Text{text = p.title} end})
    local c = Card{title = "a"}
    local err = refusal(function() c.props.title = "b" end) -- the write
    assert.matches("^%[immutableComponent%] [^:]*props_spec%.lua:" .. line_of("-- the write") .. ": cannot set props%.title of PropsCard", err)
    assert.are.equal("a", c.props.title)
  end)

  -- The table library calls __newindex from C: the message still names the script's line.
  it("refuse writes through table.insert, table.sort, table.remove and table.move (props, state, components) at the caller's line", function()
    local Tags = ck.component("PropsTags", {scope = true, initialState = {"b", "a"}})
    local host = ck.host(function() return Tags{"y", "x"} end)
    local c = host.root
    local writes = {
      function() table.insert(c.state, "c") end, -- insert state
      function() table.sort(c.state) end, -- sort state
      function() table.remove(c.props, 1) end, -- remove props
      function() table.move({1, 2}, 1, 2, 1, c.props) end, -- move props
      function() table.move({1}, 1, 1, 1, c) end, -- move component
    }
    for i, marker in ipairs{"-- insert state", "-- sort state", "-- remove props", "-- move props", "-- move component"} do
      local err = refusal(writes[i])
      assert.matches("^%[immutableComponent%] [^:]*props_spec%.lua:" .. line_of(marker) .. ": cannot set", err)
    end
  end)

  it("refuse writes in render, view, initialState and shouldUpdate", function()
    local seen = {}
    local function try(where, p) seen[where] = refusal(function() p.x = 1 end) end
    local Leaf = ck.component("PropsLeaf", {
      scope = function(p) return p.id end,
      initialState = function(p) try("initialState", p) return 0 end,
      pure = true,
      shouldUpdate = function(_, old, new) try("shouldUpdate old", old) try("shouldUpdate new", new) return true end,
      view = function(_, p) try("view", p) return {class = "UIView"} end,
    })
    local Root = ck.component("PropsRoot", {scope = true, initialState = 0, render = function(self, p, s)
      try("render", p)
      return Leaf{id = 1, n = s}
    end})
    local host = ck.host(function() return Root{} end)
    host:mount()
    host.root:updateState(function(n) return n + 1 end)
    ck.flush()
    for _, where in ipairs({"initialState", "shouldUpdate old", "shouldUpdate new", "view", "render"}) do
      assert.matches("^%[immutableComponent%].-cannot set props%.x of Props", seen[where] or "not called: " .. where)
    end
  end)

  it("refuse writes from a controller through its component", function()
    local err
    ck.controller("PropsTouchyController", {didMount = function(self)
      err = refusal(function() self.component.props.title = "x" end)
    end})
    local Touchy = ck.component("PropsTouchy", {scope = true, render = function() return ck.Text{text = "t"} end})
    ck.host(function() return Touchy{title = "t"} end):mount()
    assert.matches("^%[immutableComponent%].-cannot set props%.title of PropsTouchy", err)
  end)

  it("read as the table does: fields, #, pairs, ipairs, and the same value every time", function()
    local t = {"a", "b", title = "x"}
    local render_props
    local List = ck.component("PropsList", {render = function(self, p) render_props = p return nil end})
    local host = ck.host(function() return List(t) end)
    local p = host.root.props
    assert.are.equal("x", p.title)
    assert.are.equal(2, #p)
    local pairs_seen, ipairs_seen = {}, {}
    for k, v in pairs(p) do pairs_seen[k] = v end
    for i, v in ipairs(p) do ipairs_seen[i] = v end
    assert.are.same(t, pairs_seen)
    assert.are.same({"a", "b"}, ipairs_seen)
    assert.are.equal(p, render_props)
    assert.are.equal(p, host.root.props)
    assert.are.equal("userdata", type(p))
    assert.are.equal("read-only props", getmetatable(p))
    assert.is_false(pcall(setmetatable, p, {}))
  end)

  it("are shallow: a table inside the props stays the script's own", function()
    local items = {}
    local c = ck.component("PropsShallow", {})({items = items})
    table.insert(c.props.items, 1)
    assert.are.same({1}, items)
  end)

  it("are unwrapped when passed on: Child(self.props) gets the table itself", function()
    local t = {text = "hello"}
    local child_props
    local Child = ck.component("PropsChild", {render = function(_, p) child_props = p return ck.Text(p) end})
    local Parent = ck.component("PropsParent", {render = function(self) return Child(self.props) end})
    local host = ck.host(function() return Parent(t) end)
    host:mount()
    assert.are.equal(host.root.props, child_props)
    assert.truthy(host:dump():find("hello", 1, true))
  end)

  it("passed on to a class with a scope function: it reads the key and the props through the view", function()
    local Scoped = ck.component("PropsScopedChild", {scope = function(p) return p.id end, render = function() return nil end})
    local Parent = ck.component("PropsScopedParent", {render = function(self) return Scoped(self.props) end})
    local host = ck.host(function() return Parent{id = 4, key = "k"} end)
    host:mount()
    local child = host:find("PropsScopedChild")
    assert.are.equal("k", child.key)
    assert.are.equal(4, child.scope.identifier)
    assert.are.equal(4, child.props.id)
  end)

  it("let a pure component skip its update when its parent passes the same props table", function()
    local renders, shared = 0, {v = 1}
    local Pure = ck.component("PropsPure", {pure = true, render = function() renders = renders + 1 return nil end})
    local Root = ck.component("PropsPureRoot", {scope = true, initialState = 0, render = function() return Pure(shared) end})
    local host = ck.host(function() return Root{} end)
    host:mount()
    host.root:updateState(function(n) return n + 1 end)
    ck.flush()
    assert.are.equal(1, renders)
  end)
end)

-- An update function gets the previous state as the read-only view (an outsider's React app
-- changed it in place and returned it: the change survived its build's rollback).
describe("state in update functions", function()
  it("is the read-only view: a change in place is refused and the state stays", function()
    local Counter = ck.component("UpdaterCounter", {scope = true, initialState = {n = 0},
      render = function(_, _, s) return ck.Text{text = "n=" .. s.n} end})
    local host = ck.host(function() return Counter{} end)
    local c = host.root
    local ok, err = pcall(function() c:updateState(function(s) s.n = s.n + 1; return s end, "sync") end)
    assert.is_false(ok)
    assert.matches("%[immutableComponent%].*cannot set state%.n of UpdaterCounter", tostring(err))
    assert.are.equal(0, host.root.state.n)
    assert.are.equal(0, c.state.n)
    c:updateState(function(s) return {n = s.n + 1} end, "sync")
    assert.are.equal(1, host.root.state.n)
    local before = host.root.state
    host.root:updateState(function(s) return s end, "sync")
    assert.are.equal(before, host.root.state)
  end)
end)

describe("props views in assertions", function()
  local C = ck.component("PropsAsserted", {})
  it("compare by their contents in assert.same, in both directions", function()
    local c = C{title = "x", 1}
    assert.are.same({title = "x", 1}, c.props)
    assert.are.same(c.props, {title = "x", 1})
    assert.are_not.same({title = "x"}, c.props)
    assert.are_not.same(c.props, {title = "x"})
    assert.are.same({p = {a = 1}}, {p = C{a = 1}.props})
  end)

  it("compare by their contents in match.same too (called_with, returned_with), on either side", function()
    local c = C{title = "x", 1}
    local s = spy.new(function(v) return v end)
    s(c.props)
    assert.spy(s).was.called_with(match.same({title = "x", 1}))
    assert.spy(s).was.returned_with(match.same({title = "x", 1}))
    assert.spy(s).was_not.called_with(match.same({title = "y", 1}))
    local t = spy.new(function() end)
    t({title = "x", 1})
    assert.spy(t).was.called_with(match.same(c.props))
    assert.spy(t).was_not.called_with(match.same(C{title = "y"}.props))
    assert.is_true(match.same(c.props)(c.props))
    assert.is_false(match.same(c.props)("x"))
  end)

  it("print their contents when an assertion fails", function()
    local ok, err = pcall(assert.are.same, {title = "y"}, C{title = "x"}.props)
    assert.is_false(ok)
    assert.matches("%(read%-only props%) {.-%[title%] = 'x'", tostring(err))
  end)
end)

-- Issue 24, class 9: a view was a table holding the props under private keys, so raw access
-- (next, rawget, rawset, the state pairs hands out) and the scope function reached the props.
describe("props views against raw access", function()
  local Card = ck.component("PropsRawCard", {render = function(_, p) return ck.Text{text = p.title} end})

  it("give next, rawget, rawset and rawlen nothing to reach", function()
    local c = Card{title = "a", "x"}
    local p = c.props
    assert.is_false(pcall(next, p))
    assert.is_false(pcall(rawget, p, "title"))
    assert.is_false(pcall(rawlen, p))
    assert.is_false(pcall(rawset, p, "title", "b"))
    assert.are.equal("a", c.props.title)
  end)

  it("iterate without handing out the props table", function()
    local c = Card{title = "a"}
    local _, state = pairs(c.props)
    assert.are_not.equal("table", type(state))
    assert.is_false(pcall(function() state.title = "b" end))
    assert.are.equal("a", c.props.title)
  end)

  it("honour the props table's __pairs, as pairs on the table does, still without handing it out", function()
    local t = setmetatable({}, {
      __pairs = function(t) return function(s, k) if k == nil then return "label", "P", s == t end end, t, nil end,
      __index = {label = "P"},
    })
    local c = Card(t)
    local seen = {}
    for k, v, state_was_table in pairs(c.props) do seen[#seen + 1] = {k, v, state_was_table} end
    assert.are.same({{"label", "P", true}}, seen)
    local _, state = pairs(c.props)
    assert.are.equal(c.props, state)
    local raising = Card(setmetatable({}, {__pairs = function() error("no pairs here") end}))
    assert.has_error(function() pairs(raising.props) end)
  end)

  it("are what a scope function gets: it cannot write the props", function()
    local err
    local Scoped = ck.component("PropsRawScoped", {scope = function(p)
      local ok, e = pcall(function() p.id = 2 end)
      err = not ok and tostring(e)
      return p.id
    end})
    local given = {id = 1}
    local host = ck.host(function() return Scoped(given) end)
    assert.matches("^%[immutableComponent%].-cannot set props%.id of PropsRawScoped", err)
    assert.are.equal(1, given.id)
    assert.are.equal("PropsRawScoped#1", host.root.scope.path)
  end)

  it("conform as struct arguments by the props they show", function()
    ck.struct("PropsRawPoint", {x = "int", y = "int"})
    local got
    local a = ck.action(function(sender, point) got = point end, {"PropsRawPoint"})
    a:send(nil, Card{x = 3, y = 4}.props)
    assert.are.same({x = 3, y = 4}, got)
  end)

  it("reach a handler taking a table as the same read-only view", function()
    local got
    local a = ck.action(function(sender, t) got = t end, {"table"})
    local p = Card{title = "a"}.props
    a:send(nil, p)
    a:send(nil, p)
    assert.are.equal(p, got)
    assert.is_false(pcall(function() got.title = "b" end))
  end)
end)
