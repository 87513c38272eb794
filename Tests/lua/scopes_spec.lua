-- SPEC §3: scopes and state.

local function collectWarnings()
  local list = {}
  ck.config.onWarning = function(m) list[#list + 1] = m end
  return list
end

describe("scope identity", function()
  it("is (class, identifier, key) within the enclosing scope at construction", function()
    local Leaf = ck.component("IdLeaf", {scope = true, initialState = 0})
    local Wrapper = ck.component("IdWrapper", {scope = true, render = function(self, props) return props.content end})
    local Owner = ck.component("IdOwner", {scope = true, render = function() return Wrapper{content = Leaf{}} end})
    local host = ck.host(function() return Owner{} end)
    local leaf = host:find("IdLeaf")
    assert.are.equal("IdOwner/IdLeaf", leaf.scope.path)
  end)

  it("survives generations and keeps state by identifier and key", function()
    local Item = ck.component("ListItem", {scope = function(p) return p.id end, initialState = function(p) return p.id * 10 end})
    local host = ck.host(function(m) local c = {} for _, id in ipairs(m) do c[#c + 1] = Item{id = id} end return ck.Stack{children = c} end,
                         {model = {1, 2, 3}})
    local s2 = host:find("ListItem#2").scope
    host:find("ListItem#2"):updateState(99, "sync")
    host:update({3, 2})
    assert.are.equal(s2, host:find("ListItem#2").scope)
    assert.are.equal(99, host:find("ListItem#2").state)
    assert.are.equal(30, host:find("ListItem#3").state)
    assert.is_nil(host:find("ListItem#1"))
  end)

  it("tells colliding siblings apart by order and warns naming both paths", function()
    local warnings = collectWarnings()
    local Twin = ck.component("Twin", {scope = true, initialState = function() return {} end})
    local host = ck.host(function() return ck.Stack{children = {Twin{}, Twin{}}} end)
    ck.config.onWarning = nil
    local twins = host:findAll("Twin")
    assert.are_not.equal(twins[1].scope, twins[2].scope)
    assert.are_not.equal(twins[1].state, twins[2].state)
    assert.are.equal(1, #warnings)
    assert.is_not_nil(warnings[1]:find("Twin and Twin[2]", 1, true))
  end)

  it("reports the collision on every build that meets it", function()
    local warnings = collectWarnings()
    local Dup = ck.component("DupItem", {scope = true})
    local host = ck.host(function() return ck.Stack{children = {Dup{}, Dup{}}} end)
    host:update()
    ck.config.onWarning = nil
    assert.are.equal(2, #warnings)
  end)

  it("cannot be made outside a build", function()
    local Scoped = ck.component("OutsideScoped", {scope = true})
    assert.error_matches(function() Scoped{} end, "^%[outsideBuild%]")
  end)
end)

describe("initialState", function()
  it("runs once per scope lifetime", function()
    local calls = 0
    local C = ck.component("InitOnce", {scope = true, initialState = function(props) calls = calls + 1 return props.start end})
    local host = ck.host(function() return C{start = 5} end)
    host:update()
    host:update()
    assert.are.equal(1, calls)
    assert.are.equal(5, host.root.state)
  end)
end)

describe("updateState", function()
  local Counter, host
  before_each(function()
    Counter = ck.component("Counter", {scope = true, initialState = 0})
    host = ck.host(function() return Counter{} end)
  end)

  it("queues async updates until the next turn", function()
    host.root:updateState(1)
    assert.are.equal(0, host.root.state)
    ck.flush()
    assert.are.equal(1, host.root.state)
  end)

  it("folds values and functions in order into one build", function()
    local gen = host.generation
    host.root:updateState(function(n) return n + 1 end)
    host.root:updateState(10)
    host.root:updateState(function(n) return n * 2 end)
    ck.flush()
    assert.are.equal(20, host.root.state)
    assert.are.equal(gen + 1, host.generation)
  end)

  it("builds a top-level sync update before returning", function()
    host.root:updateState(7, "sync")
    assert.are.equal(7, host.root.state)
  end)

  it("makes one synchronous build of an async then a sync update in the same turn", function()
    local gen = host.generation
    host.root:updateState(function(n) return n + 1 end)
    host.root:updateState(function(n) return n * 10 end, "sync")
    assert.are.equal(10, host.root.state)
    assert.are.equal(gen + 1, host.generation)
  end)

  it("may be called on any generation", function()
    local old = host.root
    old:updateState(1, "sync")
    old:updateState(2, "sync")
    assert.are.equal(2, host.root.state)
  end)

  it("raises [noScope] without a scope", function()
    assert.error_matches(function() ck.Text{text = "x"}:updateState(1) end, "^%[noScope%]")
  end)

  it("rejects a bad mode", function()
    assert.error_matches(function() host.root:updateState(1, "later") end, "^%[badArgument%]")
  end)

  it("drops updates for a scope that left the tree", function()
    local Item = ck.component("Leaving", {scope = true, initialState = 0})
    local h = ck.host(function(show) return show and Item{} or nil end, {model = true})
    local gone = h.root
    h:update(false)
    gone:updateState(5, "sync")
    assert.is_nil(h.root)
  end)

  it("is flushed by host:flush for that host", function()
    host.root:updateState(3)
    host:flush()
    assert.are.equal(3, host.root.state)
  end)
end)

describe("what a build renders", function()
  it("re-runs every render below the provider on host:update", function()
    local renders = {}
    local Leaf = ck.component("RLeaf", {scope = function(p) return p.id end, render = function(self, p) renders[p.id] = (renders[p.id] or 0) + 1 end})
    local host = ck.host(function() return ck.Stack{children = {Leaf{id = 1}, Leaf{id = 2}}} end)
    host:update()
    assert.are.same({[1] = 2, [2] = 2}, renders)
  end)

  it("re-renders only changed scopes and their descendants on a state update", function()
    local count = {}
    local function counted(name) count[name] = (count[name] or 0) + 1 end
    local Child = ck.component("SChild", {render = function() counted("child") end})
    local Leaf = ck.component("SLeaf", {scope = function(p) return p.id end, initialState = 0,
      render = function(self, p) counted("leaf" .. p.id) return Child{} end})
    local Root = ck.component("SRoot", {scope = true, render = function() counted("root")
      return ck.Stack{children = {Leaf{id = 1}, Leaf{id = 2}}} end})
    local host = ck.host(function() return Root{} end)
    local root = host.root
    host:find("SLeaf#2"):updateState(1, "sync")
    assert.are.same({root = 1, leaf1 = 1, leaf2 = 2, child = 3}, count)
    assert.are.equal(root, host.root)
  end)

  -- Guards for issue 28's linear batching (dirty ancestors found by stamped walks, tree
  -- membership as a flag): what one turn of updates renders, whatever the order they came in.
  it("renders a dirty parent and its dirty descendants once each, in whichever order they were updated", function()
    local count = {}
    local Deep = ck.component("BDeep", {scope = true, initialState = 0, view = {class = "UILabel"},
      render = function() count.deep = (count.deep or 0) + 1 end})
    local Mid = ck.component("BMid", {render = function() return Deep{} end})
    local Top = ck.component("BTop", {scope = true, initialState = 0, render = function(self, p, s)
      count.top = (count.top or 0) + 1
      return ck.View{class = "UIView", child = ck.Stack{children = {Mid{}, ck.Text{text = tostring(s)}}}}
    end})
    local host = ck.host(function() return ck.Stack{children = {Top{}, ck.Text{text = "x"}}} end)
    host:mount()
    for round, deepFirst in ipairs({true, false}) do
      count = {}
      ck.flush()
      local top, deep = host:find("BTop"), host:find("BDeep")
      if deepFirst then deep:updateState(round); top:updateState(round) else top:updateState(round); deep:updateState(round) end
      ck.flush()
      assert.are.same({top = 1, deep = 1}, count)
      assert.are.equal(round, host:find("BTop").state)
      assert.are.equal(round, host:find("BDeep").state)
      assert.is_true(host:find("BDeep").isMounted)
    end
  end)

  it("renders each of many siblings updated in one turn once, in one build", function()
    local renders = 0
    local Row = ck.component("BRow", {scope = function(p) return p.i end, initialState = 0,
      view = {class = "UILabel"}, render = function() renders = renders + 1 end})
    local host = ck.host(function() local c = {} for i = 1, 50 do c[i] = Row{i = i} end return ck.Stack{children = c} end)
    host:mount()
    renders = 0
    local generation = host.generation
    for i, row in ipairs(host:findAll("BRow")) do if i % 2 == 0 then row:updateState(i) end end
    ck.flush()
    assert.are.equal(25, renders)
    assert.are.equal(generation + 1, host.generation)
    for i, row in ipairs(host:findAll("BRow")) do assert.are.equal(i % 2 == 0 and i or 0, row.state) end
    assert.are.equal(50, #host.view.subviews)
  end)

  it("renders nothing for a live scope whose component was built but not placed, until it is placed again", function()
    local renders = 0
    local Kid = ck.component("BKid", {scope = true, initialState = 0, render = function() renders = renders + 1 end})
    local Parent = ck.component("BParent", {scope = true, render = function(self, p)
      local kid = Kid{}   -- claims the scope in every build
      if p.show then return kid end
    end})
    local host = ck.host(function(show) return Parent{show = show} end, {model = true})
    local kid = host:find("BKid")
    host:update(false)
    renders = 0
    assert.is_true(kid.scope.isLive)
    kid:updateState(7, "sync")
    assert.are.equal(0, renders)
    host:update(true)
    assert.are.equal(7, host:find("BKid").state)
  end)

  it("keeps a pure component whose props are shallow-equal, without callbacks", function()
    local renders = 0
    local Pure = ck.component("PureLeaf", {pure = true, render = function() renders = renders + 1 end})
    local host = ck.host(function(m) return ck.Stack{children = {Pure{label = "same"}, ck.Text{text = m}}} end, {model = "a"})
    local before = host:find("PureLeaf")
    host:update("b")
    assert.are.equal(before, host:find("PureLeaf"))
    assert.are.equal(1, renders)
  end)

  it("honours shouldUpdate on pure components", function()
    local Pure = ck.component("PickyLeaf", {pure = true, shouldUpdate = function(self, old, new) return old.v ~= new.v end})
    local host = ck.host(function(m) return Pure{v = m.v, noise = m.noise} end, {model = {v = 1, noise = 1}})
    local first = host.root
    host:update({v = 1, noise = 2})
    assert.are.equal(first, host.root)
    host:update({v = 2, noise = 2})
    assert.are_not.equal(first, host.root)
  end)

  it("re-renders a pure component whose scope has a pending update", function()
    local Pure = ck.component("PendingPure", {pure = true, scope = true, initialState = 0})
    local host = ck.host(function() return Pure{} end)
    host.root:updateState(1)
    host:update()
    assert.are.equal(1, host.root.state)
  end)
end)

describe("update errors", function()
  it("refuses updateState during render", function()
    local Bad = ck.component("UpdatesInRender", {scope = true, render = function(self) self:updateState(1) end})
    assert.error_matches(function() ck.host(function() return Bad{} end) end, "%[updateDuringRender%]")
  end)

  -- A render that changed its host (or another) built into, or tore down, the generation being
  -- made: host:update from a render left the screen on one model and the host on another.
  for _, call in ipairs({"update", "reload", "mount", "unmount", "destroy", "flush", "ck.flush"}) do
    it("refuses " .. call .. " during render and keeps what is mounted", function()
      local host, other
      local armed = false
      local Row = ck.component("RefusingRow", {scope = true, view = {class = "UILabel"}, render = function(self, p)
        if armed and p.key == 2 then
          armed = false
          if call == "ck.flush" then ck.flush()
          elseif call == "reload" then host:reload(function(m) return ck.Stack{children = {}} end)
          elseif call == "update" then host:update({9, 8})
          else other[call](other) end
        end
      end})
      local function list(m)
        local ch = {} for _, k in ipairs(m) do ch[#ch + 1] = Row{key = k} end return ck.Stack{children = ch}
      end
      host = ck.host(list, {model = {1, 2, 3}})
      host:mount()
      other = ck.host(list, {model = {1}})
      if call == "unmount" or call == "destroy" then other:mount() end
      armed = true
      assert.error_matches(function() host:update({2, 1, 3}) end, "%[updateDuringRender%]")
      local keys = {}
      for _, v in ipairs(host.view.subviews) do keys[#keys + 1] = ck.componentOf(v).key end
      assert.are.same({1, 2, 3}, keys)
      host:update({3, 2})
      assert.are.equal(2, #host.view.subviews)
    end)
  end

  it("stops a self-triggering chain after 100 builds", function()
    ck.controller("LoopController", {didUpdateComponent = function(self) self.component:updateState(function(n) return n + 1 end, "sync") end,
                                     didMount = function(self) self.component:updateState(1, "sync") end})
    local Loop = ck.component("Loop", {scope = true, initialState = 0})
    local host = ck.host(function() return Loop{} end)
    assert.error_matches(function() host:mount() end, "%[updateLoop%]")
  end)

  it("keeps the previous generation and state and drops the updates when a build raises", function()
    local fail = false
    ck.controller("SturdyController", {})
    local C = ck.component("Sturdy", {scope = true, initialState = 1, render = function() if fail then error("render broke") end end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local root, controller = host.root, ck.controllerOf(host.root)
    fail = true
    host.root:updateState(2)
    assert.error_matches(function() ck.flush() end, "render broke")
    assert.are.equal(root, host.root)
    assert.are.equal(1, host.root.state)
    assert.are.equal(controller, ck.controllerOf(host.root))
    fail = false
    ck.flush()
    assert.are.equal(1, host.root.state, "SPEC §3: the updates the failed build folded are dropped")
    assert.are.equal(controller, ck.controllerOf(host.root))
  end)
end)
