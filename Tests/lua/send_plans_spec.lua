-- Cached sends: after a send resolves, later sends of the same action are answered from a
-- plan without entering Swift, until something the resolution depends on changes. Each test
-- sends at least twice and checks both that the plan was used (ck.stats().plannedSends) and
-- that the result is what the full path gives.

local function planned(f)
  local before = ck.stats().plannedSends
  f()
  return ck.stats().plannedSends - before
end

-- A plan holds its receiver weakly: each test's root is kept, so that collection cannot take it.
local kept = {}
local function scoped(name, def)
  def.scope = true
  local C = ck.component(name, def)
  local host = ck.host(function() return C{} end)
  kept[#kept + 1] = host.root
  return host, C
end

local function chainHost(name, cardDef, controllerDef, opts)
  ck.controller(name .. "Controller", controllerDef or {})
  local def = {scope = true, render = function() return ck.Button{title = "go"} end}
  for k, v in pairs(cardDef or {}) do def[k] = v end
  local Card = ck.component(name, def)
  local host = ck.host(function() return Card{} end, opts)
  host:mount()
  kept[#kept + 1] = host.root
  return host, host:find("Button"), host.root
end

describe("a planned send", function()
  -- Counts that do not depend on when the collector runs: a host an earlier test dropped ends
  -- when it is collected, and a host's end moves the epoch every plan is checked against; so
  -- each test starts after a full collection (and keeps its roots, above).
  before_each(function() collectgarbage() end)

  it("answers repeated scope sends from the plan with converted arguments", function()
    local got = {}
    local host = scoped("PlanTarget", {hit = function(self, sender, a, b) got[#got + 1] = {self, sender, a, b} end})
    local a = host.root:action("hit", {"int", "number"})
    local n = planned(function()
      for i = 1, 3 do assert.is_true(a:send(nil, i + 0.0, i)) end
    end)
    assert.are.equal(2, n)   -- the first send makes the plan
    for i = 1, 3 do
      assert.are.equal(host.root, got[i][1])
      assert.is_nil(got[i][2])
      assert.are.equal("integer", math.type(got[i][3]))
      assert.are.equal("float", math.type(got[i][4]))
      assert.are.equal(i, got[i][3])
    end
  end)

  it("checks arguments and the sender as the full path does", function()
    local host = scoped("PlanChecks", {take = function() end})
    local a = host.root:action("take", {"int", "number", "string", "bool"})
    a:send(nil, 1, 1, "x", true)
    assert.error_matches(function() a:send(nil, 2.5, 1, "x", true) end, "^%[badArgument%].*argument #1 must be int, got 2.5 %(a number that is not an integer%)")
    assert.error_matches(function() a:send(nil, 1, "1", "x", true) end, "^%[badArgument%].*argument #2")
    assert.error_matches(function() a:send(nil, 1, 1, 2, true) end, "^%[badArgument%].*argument #3")
    assert.error_matches(function() a:send(nil, 1, 1, "x", nil) end, "^%[badArgument%].*argument #4 must be bool")
    assert.error_matches(function() a:send(nil, 1, 1, "x", true, "extra") end, "^%[badArgument%].*at most 4")
    assert.error_matches(function() a:send(nil, 1, 1) end, "^%[badArgument%].*argument #4")
    assert.error_matches(function() a:send(5, 1, 1, "x", true) end, "^%[badArgument%].*sender")
    assert.error_matches(function() a:send(nil, math.huge, 1, "x", true) end, "^%[badArgument%].*argument #1")
    assert.error_matches(function() a:send(nil, 0/0, 1, "x", true) end, "^%[badArgument%].*argument #1")
    assert.are.equal(2, planned(function()
      a:send(nil, 1, 1, nil, false)      -- nil is a string argument's value
      a:send(nil, -0.0, 1, "x", true)
    end))
  end)

  it("calls a handler redefined after the plan was made", function()
    local got
    local host, C = scoped("PlanRedefined", {hit = function(self, sender, n) got = "old" .. n end})
    local a = host.root:action("hit", {"int"})
    a:send(nil, 1)
    function C:hit(sender, n) got = "new" .. n end
    a:send(nil, 2)
    assert.are.equal("new2", got)
    assert.are.equal(1, planned(function() a:send(nil, 3) end))
    assert.are.equal("new3", got)
  end)

  it("walks again once the handler is removed", function()
    local host, C = scoped("PlanRemoved", {hit = function() end})
    local a = host.root:action("hit")
    a:send(nil)
    a:send(nil)
    C.hit = nil
    assert.error_matches(function() a:send(nil) end, "^%[unhandledAction%]")
  end)

  it("is a no-op once the scope is gone, and after host:destroy()", function()
    local calls = 0
    local C = ck.component("PlanGone", {scope = true, ping = function() calls = calls + 1 end})
    local host = ck.host(function(show) return show and C{} or nil end, {model = true})
    local a = host.root:action("ping")
    a:send(nil)
    a:send(nil)
    host:update(false)
    assert.is_false(a:send(nil))
    host:update(true)
    local b = host.root:action("ping")
    b:send(nil)
    b:send(nil)
    host:destroy()
    assert.is_false(b:send(nil))
    assert.are.equal(4, calls)
  end)

  it("is a no-op once the host was collected without destroy()", function()
    local calls = 0
    local a
    do
      local host = scoped("PlanCollected", {ping = function() calls = calls + 1 end})
      a = host.root:action("ping")
      a:send(nil)
      a:send(nil)
    end
    collectgarbage()
    collectgarbage()
    assert.is_false(a:send(nil))
    assert.are.equal(2, calls)
  end)

  it("reaches the newest generation after a state update", function()
    local seen
    local host = scoped("PlanNewest", {initialState = 0, ping = function(self) seen = self end})
    local a = host.root:action("ping")
    a:send(nil)
    host.root:updateState(1, "sync")
    a:send(nil)
    assert.are.equal(host.root, seen)
    assert.are.equal(1, seen.state)
    assert.are.equal(1, planned(function() a:send(nil) end))
    assert.are.equal(1, seen.state)
  end)

  it("follows the chain as it is for each sender of a selector action", function()
    local got = {}
    local Inner = ck.component("PlanInner", {scope = function(p) return p.id end,
      render = function(self, p) return ck.Button{title = p.id} end,
      hit = function(self) got[#got + 1] = self.props.id end})
    local Outer = ck.component("PlanOuter", {render = function()
      return ck.Stack{children = {Inner{id = "a"}, ck.Button{title = "outside"}}} end,
      hit = function(self) got[#got + 1] = "outer" end})
    local host = ck.host(function() return Outer{} end)
    host:mount()
    local a = ck.action("hit")
    local inside, outside = host:find("PlanInner Button"), host:findAll("Button")[2]
    a:send(inside)
    a:send(inside)
    a:send(outside)
    a:send(outside)
    a:send(inside)
    assert.are.same({"a", "a", "outer", "outer", "a"}, got)
  end)

  it("raises [notMounted] once the sender is unmounted", function()
    local got = 0
    local host, button = chainHost("PlanUnmount", {hit = function() got = got + 1 end})
    local a = ck.action("hit")
    a:send(button)
    a:send(button)
    host:unmount()
    assert.error_matches(function() a:send(button) end, "^%[notMounted%]")
    host:mount()
    a:send(button)
    assert.are.equal(3, got)
  end)

  it("reaches a controller created after the plan was made", function()
    local got
    local Card = ck.component("PlanLate", {scope = true, render = function() return ck.Button{title = "x"} end})
    local Outer = ck.component("PlanLateOuter", {render = function() return Card{} end, hit = function() got = "outer" end})
    local host = ck.host(function() return Outer{} end)
    host:mount()
    local a = ck.action("hit")
    a:send(host:find("Button"))
    a:send(host:find("Button"))
    assert.are.equal("outer", got)
    ck.controller("PlanLateController", {hit = function() got = "controller" end})
    host:update()
    a:send(host:find("Button"))
    assert.are.equal("controller", got)
    assert.are.equal(1, planned(function() a:send(host:find("Button")) end))
    assert.are.equal("controller", got)
  end)

  it("passes what the handler's arity allows and fills demoted positions with zeros", function()
    local got
    local host = scoped("PlanDemoted", {full = function(self, ...) got = table.pack(...) end,
      two = function(self, sender, a) got = {sender, a, n = 2} end})
    local full = host.root:action("full", {"int", "bool", "int", "number", "string", "PlanDemoted"})
    local demoted = full:demoted({"int"})
    demoted:send(nil, 7)
    assert.are.equal(1, planned(function() demoted:send(nil, 8) end))
    assert.are.equal(7, got.n)
    assert.are.equal(8, got[2])
    assert.is_false(got[3])
    assert.are.equal(0, got[4])
    assert.are.equal("integer", math.type(got[4]))
    assert.are.equal("float", math.type(got[5]))
    assert.is_nil(got[6])
    assert.is_nil(got[7])
    local two = host.root:action("two", {"int", "int", "int"})
    two:send(nil, 1, 2, 3)
    assert.are.equal(1, planned(function() two:send(nil, 4, 5, 6) end))
    assert.are.same({nil, 4, n = 2}, got)
  end)

  it("is not made for struct arguments, which take the full path", function()
    ck.struct("PlanPoint", {x = "int"})
    local got
    local host = scoped("PlanStruct", {move = function(self, s, p) got = p end})
    local a = host.root:action("move", {"PlanPoint"})
    assert.are.equal(0, planned(function()
      a:send(nil, {x = 2.0})
      a:send(nil, {})
    end))
    assert.are.same({x = 0}, got)
  end)

  it("builds sync updates after the outermost send, not inside it", function()
    local during, update = {}, false
    local host = scoped("PlanSync", {initialState = 0, bump = function(self)
      if update then self:updateState(function(n) return n + 1 end, "sync") end
      during[#during + 1] = self.state
    end})
    local a = host.root:action("bump")
    a:send(nil)
    update = true
    local gen = host.generation
    assert.are.equal(1, planned(function() a:send(nil) end))
    assert.are.equal(1, host.root.state)
    assert.are.equal(gen + 1, host.generation)
    assert.are.same({0, 0}, during)
  end)

  it("builds nested sends' sync updates once, after the outermost", function()
    local update = false
    local host, C = scoped("PlanNested", {initialState = 0,
      bump = function(self) if update then self:updateState(function(n) return n + 1 end, "sync") end end})
    local bump = host.root:action("bump")
    function C:twice() bump:send(nil); bump:send(nil) end
    local twice = host.root:action("twice")
    twice:send(nil)
    update = true
    local gen = host.generation
    assert.are.equal(3, planned(function() twice:send(nil) end))
    assert.are.equal(2, host.root.state)
    assert.are.equal(gen + 1, host.generation)
  end)

  it("raises the handler's error and keeps its updates for the next turn", function()
    local fail = false
    local host = scoped("PlanRaising", {initialState = 0,
      maybe = function(self) if fail then self:updateState(5, "sync"); error("handler failed") end end})
    local a = host.root:action("maybe")
    a:send(nil)
    fail = true
    local n = planned(function()
      -- (luassert's error_matches drops the location, which is what this checks)
      local ok, err = pcall(function() a:send(nil) end)
      assert.is_false(ok)
      assert.matches("^[^\n]*send_plans_spec.lua:%d+: handler failed$", err)
    end)
    assert.are.equal(1, n)
    assert.are.equal(0, host.root.state)
    ck.flush()
    assert.are.equal(5, host.root.state)
    -- The call ended: a top-level sync update builds at once again.
    host.root:updateState(6, "sync")
    assert.are.equal(6, host.root.state)
  end)

  it("passes error objects on as they are, as the full path does (SPEC §6.3)", function()
    local raised = {}
    local host = scoped("PlanErrorObject", {boom = function()
      raised[#raised + 1] = setmetatable({}, {__tostring = function() return "boom!" end})
      error(raised[#raised])
    end})
    local a = host.root:action("boom")
    local ok1, first = pcall(a.send, a, nil)    -- the full path
    local ok2, second = pcall(a.send, a, nil)   -- from the plan
    assert.is_false(ok1)
    assert.is_false(ok2)
    assert.are.equal(raised[1], first)
    assert.are.equal(raised[2], second)
    assert.are.equal("boom!", tostring(second))
  end)

  it("raises [yieldAcrossRuntime] for a yield inside the handler", function()
    local yield = false
    local host = scoped("PlanYielder", {y = function() if yield then coroutine.yield() end end})
    local a = host.root:action("y")
    a:send(nil)
    yield = true
    local co = coroutine.create(function() a:send(nil) end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_not_nil(tostring(err):find("^%[yieldAcrossRuntime%]"))
    host.root:updateState(1, "sync")   -- the runtime is left as it was
    assert.are.equal(1, host.root.state)
  end)

  it("works from inside a coroutine", function()
    local got = {}
    local host = scoped("PlanCoroutine", {hit = function(self, s, n) got[#got + 1] = n end})
    local a = host.root:action("hit", {"int"})
    local co = coroutine.wrap(function() for i = 1, 3 do a:send(nil, i) end end)
    co()
    assert.are.same({1, 2, 3}, got)
  end)

  it("is not used while ck.trace records sends", function()
    local host = scoped("PlanTraced", {hit = function() end})
    local a = host.root:action("hit")
    a:send(nil)
    local trace
    assert.are.equal(0, planned(function() trace = ck.trace(function() a:send(nil); a:send(nil) end) end))
    assert.are.equal(2, #trace)
    assert.are.equal(1, planned(function() a:send(nil) end))
  end)

  it("is not made when canPerformAction is asked on the walk", function()
    local asked, claim = 0, true
    local host, button = chainHost("PlanClaims", {hit = function() end,
      canPerformAction = function(self, sel) asked = asked + 1; return claim end},
      {hit = function() end})
    local a = ck.action("hit")
    assert.are.equal(0, planned(function() a:send(button); a:send(button) end))
    assert.are.equal(2, asked)
  end)

  it("is not made when a host responder or a plain table handles the send", function()
    local got
    local vc = {name = "ViewController", methods = {save = function() got = "first" end}}
    local host, button = chainHost("PlanHostResponder", nil, nil, {responders = {vc}})
    local a = ck.action("save")
    a:send(button)
    vc.methods.save = function() got = "second" end
    assert.are.equal(0, planned(function() a:send(button) end))
    assert.are.equal("second", got)
    local target = {ping = function() got = 1 end}
    local t = ck.action(target, "ping")
    t:send(nil)
    target.ping = function() got = 2 end
    t:send(nil)
    assert.are.equal(2, got)
  end)

  it("answers block actions and target actions on components", function()
    local got = {}
    local block = ck.action(function(sender, n) got[#got + 1] = n end, {"int"})
    local text = ck.Text{text = "x"}
    block:send(text, 1)
    assert.are.equal(1, planned(function() block:send(text, 2) end))
    local host, button, card = chainHost("PlanTarget2", {ping = function(self, s, n) got[#got + 1] = n * 10 end})
    local t = ck.action(card, "ping", {"int"})
    t:send(button, 3)
    assert.are.equal(1, planned(function() t:send(button, 4) end))
    assert.are.same({1, 2, 30, 40}, got)
  end)

  it("passes any value through an any-typed argument unchanged", function()
    local got
    local host = scoped("PlanAny", {take = function(self, s, v) got = v end})
    local a = host.root:action("take", {"any"})
    a:send(nil, 1)
    local t, f, co = {}, function() end, coroutine.create(function() end)
    for _, v in ipairs({t, f, co, "bytes\0\255", 2^53, true, host.root}) do
      a:send(nil, v)
      assert.are.equal(v, got)
    end
  end)

  it("is neither made nor used while a build, mount, unmount or destroy changes the tree", function()
    local sel = ck.action("ping")
    local got = {}
    local C = ck.component("PlanChangingLeaf", {render = function() return nil end})
    local child, sAction
    ck.controller("PlanChangingController", {
      willUnmount = function() got.willUnmount = {pcall(sel.send, sel, child)} end,
      didUnmount = function() got.didUnmount = {pcall(sel.send, sel, child)} end,
      invalidateController = function() got.invalidate = {pcall(sAction.send, sAction, nil)} end,
    })
    local R = ck.component("PlanChanging", {scope = true, render = function() return C{} end,
      ping = function() end, hit = function() end})
    local h = ck.host(function() return R{} end)
    h:mount()
    child = h:find("PlanChangingLeaf")
    sAction = h.root:action("hit")
    assert.are.equal(0, planned(function() h:unmount() end))
    assert.is_true(got.willUnmount[2])                 -- still mounted in willUnmount
    assert.is_false(got.didUnmount[1])                 -- unmounted in didUnmount, after a send there
    assert.is_not_nil(tostring(got.didUnmount[2]):find("^%[notMounted%]"))
    h:mount()
    sAction:send(nil)                                  -- a plan made before the destroy
    assert.are.equal(0, planned(function() h:destroy() end))
    assert.is_true(got.invalidate[1])
    assert.is_false(got.invalidate[2])                 -- the scope left: a no-op, not a call
  end)

  it("sends a render's scope action to the generation being replaced, and later ones to the new", function()
    local seen = {}
    local a
    local R = ck.component("PlanRenderSend", {scope = true, render = function(self, p)
      if a then a:send(nil, "render") end
      return nil
    end, hit = function(self, s, from) seen[#seen + 1] = from .. ":" .. self.props.n end})
    local h = ck.host(function(n) return R{n = n} end, {model = 1})
    a = h.root:action("hit", {"string"})
    a:send(nil, "first")
    h:update(2)
    a:send(nil, "after")
    assert.are.same({"first:1", "render:1", "after:2"}, seen)
  end)

  it("rejects a missing int argument whatever the stack held before", function()
    local a = ck.action(function(sender, n) end, {"int"})
    a:send(nil, 1)
    local function fill() local x1, x2, x3, x4 = 11, 12, 13, 14 return x1 + x2 + x3 + x4 end
    fill()
    assert.error_matches(function() a:send(nil) end, "^%[badArgument%].*argument #1 must be int, got nil")
  end)

  it("keeps every byte of a string that is not UTF-8, on both paths", function()
    local got = {}
    local host = scoped("PlanBytes", {take = function(self, s, v) got[#got + 1] = v end})
    for _, types in ipairs({{"string"}, {"any"}}) do
      local a = host.root:action("take", types)
      a:send(nil, "a\255\0b")
      a:send(nil, "a\255\0b")
    end
    for i = 1, 4 do assert.are.equal("a\255\0b", got[i]) end
    host.root:updateState("\255", "sync")
    assert.are.equal("\255", host.root.state)
  end)

  it("keeps nothing alive: sender, receiver and handler can be collected", function()
    local sel = ck.action("ping")
    local R = ck.component("PlanWeak", {scope = true, render = function() return ck.Text{text = "x"} end, ping = function() end})
    local weak = setmetatable({}, {__mode = "k"})
    do
      local h = ck.host(function() return R{} end)
      h:mount()
      local t = h:find("Text")
      weak[t], weak[h.root] = "sender", "receiver"
      sel:send(t)
      sel:send(t)
      h:destroy()
    end
    collectgarbage()
    collectgarbage()
    assert.is_nil(next(weak))
  end)
end)
