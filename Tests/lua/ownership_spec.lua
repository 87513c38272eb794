-- The script values the core holds live in arenas Lua's collector sees (issue 26): what only Lua
-- reaches through Swift objects is collected whole, what the core roots stays.

local function collect(n)
  for _ = 1, n or 3 do collectgarbage() end
end

local function gone(weak)
  return next(weak) == nil
end

describe("ownership", function()
  local rescues_before
  before_each(function() rescues_before = ck.stats().rescues end)
  after_each(function()
    collect()
    assert.are.equal(rescues_before, ck.stats().rescues, "an arena had to be rescued")
  end)

  it("collects a class whose render names it once a redefinition replaces it", function()
    local weak = setmetatable({}, {__mode = "k"})
    do
      local Item
      Item = ck.component("OwnSelf", {render = function(self, p) if p.n > 0 then return Item{n = p.n - 1} end end})
      weak[Item] = true
    end
    ck.component("OwnSelf", {})
    collect()
    assert.is_true(gone(weak))
  end)

  it("keeps a redefined class while a live tree still renders with it", function()
    local host
    do
      local Item
      Item = ck.component("OwnOld", {scope = true, initialState = 0,
        render = function(self, p, s) if s > 0 and p.n > 0 then return Item{n = p.n - 1} end end})
      host = ck.host(function() return Item{n = 3} end)
      host:mount()
    end
    ck.component("OwnOld", {})
    collect()
    host.root:updateState(1, "sync")
    assert.are.equal("OwnOld", host.root.name)
    assert.are.equal(1, host.root.state)
    host:destroy()
  end)

  it("collects a host dropped without destroy() whose props and state name it", function()
    local weak = setmetatable({}, {__mode = "k"})
    local Card = ck.component("OwnCard", {scope = true, initialState = {}, render = function() return ck.Text{text = "x"} end})
    do
      local h
      h = ck.host(function() return Card{onTap = function() return h end} end)
      h.root:updateState({host = h}, "sync")
      weak[h] = true
    end
    collect()
    assert.is_true(gone(weak))
  end)

  it("stops tracking a host that is not mounted once its updates are built", function()
    local Counter = ck.component("OwnCounter", {scope = true, initialState = 0})
    local tracked = ck.stats().hosts
    local h = ck.host(function() return Counter{} end)
    h.root:updateState(1, "sync")
    assert.are.equal(tracked, ck.stats().hosts)
    h.root:updateState(2)
    assert.are.equal(tracked + 1, ck.stats().hosts)
    ck.flush()
    assert.are.equal(tracked, ck.stats().hosts)
    assert.are.equal(2, h.root.state)
  end)

  it("collects a host that was mounted, unmounted and dropped, with its controllers' fields", function()
    local weak = setmetatable({}, {__mode = "k"})
    ck.controller("OwnPanelController", {didMount = function(self) self.host = self.component.props.host() end})
    local Panel = ck.component("OwnPanel", {scope = true, render = function() return ck.Text{text = "x"} end})
    do
      local h
      h = ck.host(function() return Panel{host = function() return h end} end)
      h:mount()
      h:unmount()
      weak[h] = true
    end
    collect()
    assert.is_true(gone(weak))
  end)

  it("keeps a mounted host the script dropped: the runtime holds it", function()
    local rendered
    local App = ck.component("OwnMounted", {scope = true, initialState = 0,
      render = function(self, p, s) rendered = s return ck.Text{text = tostring(s)} end})
    local root
    do
      local h
      h = ck.host(function() return App{host = function() return h end} end)
      h:mount()
      root = h.root
    end
    collect()
    root:updateState(5, "sync")
    assert.are.equal(5, rendered)
    assert.is_true(root.props.host().isMounted)
    root.props.host():destroy()
  end)

  it("keeps the props of a component the script holds after its host was dropped", function()
    local Item = ck.component("OwnKept", {})
    local c
    do
      local h
      h = ck.host(function() return Item{back = function() return h end, list = {1, 2}} end)
      c = h.root
    end
    collect()
    assert.are.same({1, 2}, c.props.list)
    assert.are.equal(1, c.props.back().generation)
  end)

  it("frees a dropped tree of 10,000 levels in at most 3 full collections", function()
    local Leaf = ck.component("OwnLeaf", {})
    collect()
    local handles = ck.stats().handles
    do
      local node = Leaf{}
      for _ = 1, 10000 do node = ck.Stack{children = {node}} end
      local h = ck.host(function() return node end)
      h:mount()
      h:unmount()
    end
    local n = 0
    repeat
      collectgarbage()
      n = n + 1
    until ck.stats().handles <= handles or n == 10
    assert.is_true(n <= 3, n .. " collections")
  end)

  -- A list re-drawn by a state update: each row renders a stack of a text and a button, so a
  -- replaced generation is handles in props in handles, four levels down from the list.
  local function redrawnList(n)
    local Row = ck.component("OwnRedrawRow", {
      scope = function(p) return p.id end,
      render = function(self, p)
        return ck.Stack{children = {ck.Text{text = p.name}, ck.Button{title = "x", action = self:action("x")}}}
      end,
      x = function() end,
    })
    local List = ck.component("OwnRedrawList", {
      scope = true, initialState = 0,
      render = function(self, props, s)
        local rows = {}
        for i = 1, n do rows[i] = Row{key = i, id = i, name = "row " .. i .. " of " .. s} end
        return ck.Stack{children = rows}
      end,
    })
    local h = ck.host(function() return List{} end)
    h:mount()
    return h
  end

  it("frees the generations a re-drawn list replaced in at most 2 full collections", function()
    local h = redrawnList(200)
    collect()
    local handles = ck.stats().handles
    for i = 1, 10 do h.root:updateState(i, "sync") end
    collectgarbage()
    collectgarbage()
    assert.are.equal(handles, ck.stats().handles)
    h:destroy()
  end)

  it("keeps a re-drawn list's memory bounded with the collector left alone", function()
    local h = redrawnList(300)
    collect()
    local base = collectgarbage("count")
    for i = 1, 150 do h.root:updateState(i, "sync") end
    -- Before, each re-draw left about 250 KB rooted until several full collections in a row.
    assert.is_true(collectgarbage("count") < base * 4 + 8192,
      string.format("%.0f KB after 150 re-draws of 300 rows, %.0f KB before", collectgarbage("count"), base))
    h:destroy()
  end)

  it("keeps what a replaced row holds while the script holds the row", function()
    local h = redrawnList(3)
    local row = h:find("OwnRedrawRow#2")
    local stack = row.props and h:find("OwnRedrawRow#2 Stack")
    for i = 1, 5 do h.root:updateState(i, "sync") end
    collect()
    assert.are.equal("row 2 of 0", row.props.name)
    assert.are.equal("x", stack.props.children[2].props.title)
    assert.are.equal("row 2 of 5", h:find("OwnRedrawRow#2").props.name)
    h:destroy()
  end)

  -- An idle host may stay on the runtime's list of hosts with work, but only while the runtime
  -- tracks it (Tests/soak/hosts.lua: the list held unmounted hosts whose Lua values were
  -- collected, and their arenas had to be rescued).
  it("lets go of a host dropped once its updates were built, mounted before or not", function()
    local Named = ck.component("OwnDroppedNamed", {scope = true, initialState = {}})
    local weak = setmetatable({}, {__mode = "k"})
    for i = 1, 4 do
      local h
      h = ck.host(function() return Named{back = function() return h end} end)
      if i % 2 == 0 then
        h:mount()
        h.root:updateState({host = h}, "sync")
        h:unmount()
      else
        h.root:updateState({host = h}, "sync")
      end
      weak[h] = true
    end
    collect()
    assert.is_true(gone(weak))
    assert.are.equal(rescues_before, ck.stats().rescues, "an arena had to be rescued")
  end)

  it("frees the generations whose render made a block action naming the component", function()
    -- React's onClick={() => this.inc()}: the closure names the instance that rendered it.
    local Counter = ck.component("OwnBlockCounter", {scope = true, initialState = 0,
      render = function(self, _, n)
        return ck.Button{title = "n=" .. n, action = ck.action(function() self:inc() end)}
      end,
      inc = function(self) self:updateState(function(n) return n + 1 end) end})
    local h = ck.host(Counter)
    h:mount()
    collect()
    local handles, values = ck.stats().handles, ck.stats().arenaValues
    for _ = 1, 200 do h:tap("Button") h:flush() end
    collect()
    assert.are.same({handles, values}, {ck.stats().handles, ck.stats().arenaValues})
    assert.are.equal("n=200", h:find("Button").props.title)
    h:destroy()
  end)

  it("collects a block action whose function names it", function()
    local weak = setmetatable({}, {__mode = "k"})
    do
      local a
      a = ck.action(function() return a end)
      weak[a] = true
    end
    collect()
    assert.is_true(gone(weak))
  end)
end)

describe("target actions", function()
  local function collect() for _ = 1, 3 do collectgarbage() end end

  -- Attack lib 08: a view spec's action targeting its own component (or an ancestor, their
  -- controller or view) kept that component, and everything it held, for good.
  it("do not keep the components whose views send them", function()
    local Card = ck.component("TargetSelfCard", {
      render = function(self) return ck.Button{title = "buy", action = ck.action(self, "buy")} end,
      buy = function(self) end})
    local Outer = ck.component("TargetParent", {scope = true,
      render = function(self) return ck.Stack{children = {Card{}, ck.Button{action = ck.action(self, "go")}}} end,
      go = function(self) end})
    local h = ck.host(function() return Outer{} end, {model = {}})
    h:mount()
    for i = 1, 100 do h:update({i = i}) end
    collect()
    local before = ck.stats().arenaValues
    for i = 1, 500 do h:update({i = i}) end
    collect()
    assert.is_true(ck.stats().arenaValues <= before + 4, "arena values grew from " .. before .. " to " .. ck.stats().arenaValues)
    assert.are.equal(1, h:tap("TargetSelfCard"))
    h:destroy()
  end)

  it("refuse a send once their target was freed", function()
    local Card = ck.component("TargetGoneCard", {buy = function(self) end})
    local action
    do
      local h = ck.host(function() return Card{} end)
      h:mount()
      action = ck.action(h.root, "buy")
      h:destroy()
    end
    collect()
    local ok, err = pcall(action.send, action, nil)
    assert.is_false(ok)
    assert.matches("%[deadObject%]", tostring(err))
  end)
end)
