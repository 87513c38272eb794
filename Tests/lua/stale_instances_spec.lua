-- Instances a script keeps after a build replaced or removed them (attack atk-mem): what they
-- answer does not change when the collector runs.
describe("a kept, replaced instance", function()
  local function list()
    local Row = ck.component("StaleRow", {scope = function(p) return p.id end, initialState = {},
      render = function() return ck.Button{title = "r", action = ck.action("nobody")} end})
    local List = ck.component("StaleList", {scope = true, initialState = {gen = 0},
      render = function(_, _, s)
        return ck.Stack{children = {ck.View{class = "UIView", child = Row{id = 1, g = s.gen}}}}
      end,
      bump = function(self) self:updateState(function(o) return {gen = o.gen + 1} end) end})
    local host = ck.host(List)
    host:mount()
    return host
  end

  it("keeps the path it had in its tree after a collection", function()
    local host = list()
    local row, button = host:find("StaleRow"), host:find("Button")
    host.root:bump()
    host:flush()
    collectgarbage()
    collectgarbage()
    assert.are.equal("StaleList/Stack/View/StaleRow#1", row.path)
    assert.are.equal("StaleList/Stack/View/StaleRow#1/Button", button.path)
  end)
end)

describe("a removed instance's controller", function()
  local function rows(prefix)
    local Row = ck.component(prefix .. "Row", {scope = function(p) return p.id end, initialState = {},
      render = function() return ck.Text{text = "r"} end})
    ck.controller(prefix .. "RowController", {init = function(self, c) self.tag = "ctrl" .. c.props.id end})
    local List = ck.component(prefix .. "List", {scope = true, initialState = {gen = 0},
      render = function(_, _, s) return ck.Stack{children = {Row{id = s.gen}}} end,
      bump = function(self) self:updateState(function(o) return {gen = o.gen + 1} end) end})
    local host = ck.host(List)
    host:mount()
    return host
  end

  it("is still answered by ck.controllerOf and scope.controller, after collections too", function()
    local host = rows("Removed")
    local row = host:find("RemovedRow")
    host.root:bump()
    host:flush()
    collectgarbage()
    collectgarbage()
    local k = ck.controllerOf(row)
    assert.is_not_nil(k)
    assert.are.equal("ctrl0", k.tag)
    assert.is_true(k.isInvalidated)
    assert.are.equal(row, k.component)
    assert.are.equal(k, row.scope.controller)
  end)

  it("goes with the instance once nothing holds either", function()
    local host = rows("Dropped")
    collectgarbage()
    collectgarbage()
    local before = ck.stats()
    for _ = 1, 50 do
      local row = host:find("DroppedRow")
      host.root:bump()
      host:flush()
      assert.is_not_nil(ck.controllerOf(row))
    end
    collectgarbage()
    collectgarbage()
    collectgarbage()
    -- A controller kept in a loop would keep its fields table in the host's arena.
    local after = ck.stats()
    assert.is_true(after.handles <= before.handles + 2, after.handles .. " handles, " .. before.handles .. " before")
    assert.is_true(after.arenaValues <= before.arenaValues + 2, after.arenaValues .. " values, " .. before.arenaValues .. " before")
  end)
end)

describe("an instance a __gc finalizer stores after its collection", function()
  it("is [deadObject] naming its class and what to do, not a bad argument", function()
    local saved = {}
    local Row = ck.component("ResurrectedRow", {scope = true, initialState = {n = 0},
      render = function(self, props, state)
        setmetatable({row = self}, {__gc = function(o) saved[#saved + 1] = o.row end})
        return ck.Text{text = props.label .. state.n}
      end})
    local host = ck.host(function(m) return Row{label = "L", n = m.n} end, {model = {n = 0}})
    host:mount()
    for i = 1, 3 do host:update({n = i}) end
    collectgarbage()
    collectgarbage()
    collectgarbage()
    assert.is_true(#saved > 0)
    for _, r in ipairs(saved) do
      local ok, err = pcall(function() return r.props end)
      assert.is_false(ok)
      assert.matches("^%[deadObject%] [^:]*stale_instances_spec%.lua:%d+: reading props of a Component: it is a Component of class ResurrectedRow whose handle Lua's collector already finalized", tostring(err))
      assert.matches("Read what you need from it inside the finalizer", tostring(err))
    end
  end)
end)

describe("updateState on a component of a destroyed host", function()
  it("is [hostDestroyed] at the script's line, before and after the host is collected", function()
    local Row = ck.component("DestroyedRow", {scope = true, initialState = {n = 0},
      render = function(_, _, s) return ck.Text{text = s.n} end})
    local host = ck.host(Row)
    host:mount()
    local row = host.root
    host:destroy()
    local _, held = pcall(row.updateState, row, {n = 1})
    assert.matches("^%[hostDestroyed%] [^:]*stale_instances_spec%.lua:%d+: DestroyedRow:updateState on DestroyedRow, a component of a host the script destroyed", held)
    host = nil
    collectgarbage()
    collectgarbage()
    local _, collected = pcall(row.updateState, row, {n = 1})
    assert.matches("^%[hostDestroyed%] [^:]*stale_instances_spec%.lua:%d+: DestroyedRow:updateState on DestroyedRow, a component of a host the script destroyed", collected)
  end)

  it("is [deadObject] saying the host was collected when the script only dropped it", function()
    local Row = ck.component("DroppedHostRow", {scope = true, initialState = {n = 0},
      render = function(_, _, s) return ck.Text{text = s.n} end})
    local row = ck.host(Row).root
    collectgarbage()
    collectgarbage()
    local _, err = pcall(row.updateState, row, {n = 1})
    assert.matches("^%[deadObject%] [^:]*stale_instances_spec%.lua:%d+: DroppedHostRow:updateState on DroppedHostRow: its host was collected", err)
  end)
end)

-- Attack atk-mem 06: the weak table of handles kept the size it had at a burst's peak.
describe("a burst of handles made with the collector stopped", function()
  it("leaves no table of its peak size once collected", function()
    collectgarbage()
    collectgarbage()
    local base = collectgarbage("count")
    collectgarbage("stop")
    for _ = 1, 100000 do local _ = ck.action("burst") end
    collectgarbage("restart")
    for _ = 1, 4 do collectgarbage() end
    local kept = collectgarbage("count") - base
    assert.is_true(kept < 256, kept .. " KB kept")
  end)

  it("leaves the host's arena at its live size once collected (at the next call into ck)", function()
    local Row = ck.component("BurstRow", {scope = function(p) return p.i end,
      render = function(_, p) return ck.Text{text = p.g} end})
    local List = ck.component("BurstList", {scope = true, initialState = {g = 0},
      render = function(_, _, s)
        local ch = {}
        for i = 1, 200 do ch[i] = Row{i = i, g = s.g} end
        return ck.Stack{children = ch}
      end,
      bump = function(self) self:updateState(function(o) return {g = o.g + 1} end) end})
    local host = ck.host(List)
    host:mount()
    collectgarbage()
    collectgarbage()
    local base = collectgarbage("count")
    collectgarbage("stop")
    for _ = 1, 150 do host.root:bump(); host:flush() end
    collectgarbage("restart")
    for _ = 1, 3 do collectgarbage() end
    ck.stats()
    collectgarbage()
    local kept = collectgarbage("count") - base
    assert.is_true(kept < 512, kept .. " KB kept")
    host:destroy()
  end)
end)

describe("an instance returned again after its scope left the tree", function()
  it("is named by the path it had, not by its label alone", function()
    local stash
    local Row = ck.component("ReturnedRow", {scope = function(p) return p.id end,
      render = function() return ck.Text{text = "x"} end})
    local madeAt = debug.getinfo(1, "l").currentline + 2   -- the render that made it
    local List = ck.component("ReturnedList", {scope = true, initialState = 1,
      render = function(_, _, s)
        if s == 1 then stash = Row{id = 1} return ck.Stack{children = {stash}} end
        return ck.Stack{children = s == 2 and {} or {stash}}
      end})
    local host = ck.host(List)
    host:mount()
    host.root:updateState(2)
    host:flush()
    collectgarbage()
    host.root:updateState(3)
    local ok, err = pcall(host.flush, host)
    assert.is_false(ok)
    assert.matches("%[badReturn%] [^:]*stale_instances_spec%.lua:" .. madeAt .. ": ReturnedList/Stack/ReturnedRow#1 was built in generation 1 and returned again after its scope left the tree", tostring(err))
  end)
end)

describe("a held instance of a host that was collected", function()
  it("keeps the whole path it had, its root included", function()
    local Row = ck.component("OrphanPathRow", {scope = true, render = function() return ck.Text{text = "x"} end})
    local List = ck.component("OrphanPathList", {render = function() return ck.Stack{children = {Row{key = 1}}} end})
    local r, t
    do
      local h = ck.host(function() return List{} end)
      r, t = h:find("OrphanPathRow#1"), h:find("OrphanPathRow#1 Text")
    end
    collectgarbage()
    collectgarbage()
    assert.are.equal("OrphanPathList/Stack/OrphanPathRow#1", r.path)
    assert.are.equal("OrphanPathList/Stack/OrphanPathRow#1/Text", t.path)
  end)
end)

describe("a host read from a finalizer as it is collected", function()
  it("dumps without crashing (the walk of its arena's tables checks each is one)", function()
    local dumped
    local List = ck.component("FinalDumpList", {render = function() return ck.Text{text = "x"} end})
    do
      local h = ck.host(function() return List{} end)
      setmetatable({h = h}, {__gc = function(o) dumped = {pcall(function() return o.h:dump() end)} end})
    end
    collectgarbage()
    collectgarbage()
    assert.is_true(dumped[1])
    assert.matches("^FinalDumpList\n  Text <UILabel", dumped[2])
  end)
end)

-- atk-stale 16: the weak index of arenas lets go of a host's arena before the finalizers of a
-- collection run; a finalizer that holds an instance of that host still reads its props and state.
describe("an instance read from a finalizer as its host is collected", function()
  local Row = ck.component("FinalReadRow", {scope = true, initialState = function() return {n = 3} end,
    render = function() return ck.Text{text = "x"} end})
  local List = ck.component("FinalReadList", {render = function(self, p)
    return ck.Stack{children = {Row{key = 1, label = p.label or "one"}}} end})

  local function readInFinalizer(setup)
    local seen
    do
      local h = ck.host(function(m) return List{label = m} end, {model = "one"})
      local row = setup(h)
      setmetatable({h = h, row = row}, {__gc = function(o)
        seen = {pcall(function()
          return o.row.props.label, o.row.state.n, o.row.scope.state.n, o.row.path
        end)}
      end})
    end
    collectgarbage()
    collectgarbage()
    return seen
  end

  it("reads the props and state of one in the tree", function()
    local seen = readInFinalizer(function(h) return h:find("FinalReadRow#1") end)
    assert.are.same({true, "one", 3, 3, "FinalReadList/Stack/FinalReadRow#1"}, seen)
  end)

  it("reads the props and state of one a later build replaced", function()
    local seen = readInFinalizer(function(h)
      local row = h:find("FinalReadRow#1")
      h:update("two")
      return row
    end)
    assert.are.same({true, "one", 3, 3, "FinalReadList/Stack/FinalReadRow#1"}, seen)
  end)
end)

describe("a controller read from a finalizer as its host is collected", function()
  it("reads the fields it set", function()
    ck.controller("FinalReadController", {didInit = function(self) self.count = 7 end})
    local Row = ck.component("FinalRead", {scope = true, render = function() end})
    local seen
    do
      local h = ck.host(function() return Row{} end)
      h:mount()
      local k = ck.controllerOf(h.root)
      h:unmount()
      setmetatable({h = h, k = k}, {__gc = function(o)
        seen = {pcall(function() return o.k.count end)}
      end})
    end
    collectgarbage()
    collectgarbage()
    assert.are.same({true, 7}, seen)
  end)
end)

describe("an instance whose handle was made after its table got its finalizer", function()
  it("is [deadObject] in that finalizer, saying the order Lua finalizes in", function()
    local Row = ck.component("OrderRow", {render = function() end})
    local seen
    do
      local o = setmetatable({}, {__gc = function(o) seen = {pcall(function() return o.row.props end)} end})
      o.row = ck.host(function() return Row{} end).root
    end
    collectgarbage()
    collectgarbage()
    assert.is_false(seen[1])
    assert.matches("Lua runs a collection's finalizers newest first: give your table its __gc once it holds the handle", tostring(seen[2]), 1, true)
  end)
end)

describe("a host's methods called from a finalizer as it is collected", function()
  it("dump its state, find instances whose props read, and build an update", function()
    local Row = ck.component("FinalMethodRow", {scope = true, initialState = function() return {n = 3} end,
      render = function(self, p) return ck.Text{text = tostring(p.n)} end})
    local seen
    do
      local h = ck.host(function(m) return Row{n = m} end, {model = 1})
      setmetatable({h = h}, {__gc = function(o)
        seen = {pcall(function()
          local dump = o.h:dump()
          local n = o.h:find("FinalMethodRow").props.n
          o.h:update(2)
          return dump, n, o.h.generation, o.h.root.props.n
        end)}
      end})
    end
    collectgarbage()
    collectgarbage()
    assert.is_true(seen[1], seen[2])
    assert.matches("state={n = 3}", seen[2], 1, true)
    assert.are.same({1, 2, 2}, {seen[3], seen[4], seen[5]})
  end)
end)
