-- SPEC §6.3: "A coroutine yield from inside a runtime call raises [yieldAcrossRuntime]; the
-- runtime is left as it was before that call": the state updates it queued and the timers it
-- set, before the yield and in the calls it made, are dropped; what was queued before it stays.

local function resumed(f)
  local ok, err = coroutine.resume(coroutine.create(f))
  assert.is_false(ok)
  -- a timer's error names the timer first: [timerFailed] … [yieldAcrossRuntime] …
  assert.is_not_nil(tostring(err):find("%[yieldAcrossRuntime%]"), tostring(err))
end

local fired
local function editor(name, extra)
  local def = {scope = true, initialState = "draft",
    render = function(self, p, s) return ck.Text{text = s} end,
    save = function(self, sender, mode)
      if mode == "nothing" then return end
      self:updateState("saving", "sync")
      self:updateState("queued", "async")
      ck.after(1, function() fired = true end)
      if mode == "yield" then coroutine.yield() end
    end}
  for k, v in pairs(extra or {}) do def[k] = v end
  local host = ck.host(ck.component(name, def))
  host:mount()
  return host
end

describe("a call broken by a yield", function()
  before_each(function() fired = false end)

  it("drops the updates queued and the timers set in a handler before the yield", function()
    local host = editor("YieldSave")
    local save = host.root:action("save", {"string"})
    resumed(function() save:send(host.root, "yield") end)
    ck.runUntilIdle()
    assert.are.equal("draft", host.root.state)
    assert.are.equal(1, host.generation)
    assert.is_false(fired)
  end)

  it("drops them too when the send is answered from a plan (in C)", function()
    local host = editor("YieldSavePlanned")
    local save = host.root:action("save", {"string"})
    save:send(host.root, "nothing")   -- resolves without asking anyone: leaves a plan
    local generation = host.generation
    local before = ck.stats().plannedSends
    resumed(function() save:send(host.root, "yield") end)
    assert.are.equal(1, ck.stats().plannedSends - before)
    ck.runUntilIdle()
    assert.are.equal("draft", host.root.state)
    assert.are.equal(generation, host.generation)
    assert.is_false(fired)
  end)

  it("keeps what was queued before the call", function()
    local host = editor("YieldKeepsEarlier")
    host.root:updateState("earlier", "async")
    resumed(function() host.root:action("save", {"string"}):send(host.root, "yield") end)
    ck.flush()
    assert.are.equal("earlier", host.root.state)
  end)

  it("rolls back only the inner call when the outer handler catches the error", function()
    local host = editor("YieldInner", {
      outer = function(self)
        self:updateState("outer", "sync")
        local inner = ck.action(self, "save", {"string"})
        local ok, err = pcall(inner.send, inner, self, "yield")
        assert(not ok and err:find("^%[yieldAcrossRuntime%]"), err)
      end})
    assert.is_true(coroutine.resume(coroutine.create(function() host.root:action("outer"):send(host.root) end)))
    ck.runUntilIdle()
    assert.are.equal("outer", host.root.state)
    assert.is_false(fired)
  end)

  it("drops what a timer's function queued before it yielded", function()
    local host = editor("YieldTimer")
    ck.after(1, function()
      host.root:updateState("from the timer")
      ck.after(1, function() fired = true end)
      coroutine.yield()
    end)
    resumed(function() ck.advance(1) end)
    ck.runUntilIdle()
    assert.are.equal("draft", host.root.state)
    assert.is_false(fired)
  end)

  it("drops what a lifecycle callback queued before it yielded", function()
    ck.controller("YieldMountController", {didMount = function(self)
      self.component:updateState("mounted")
      coroutine.yield()
    end})
    local host = ck.host(ck.component("YieldMount", {scope = true, initialState = "draft"}))
    resumed(function() host:mount() end)
    ck.flush()
    assert.are.equal("draft", host.root.state)
  end)

  it("keeps host:update's previous model when its build yields (SPEC §3)", function()
    local Label = ck.component("YieldModel", {render = function(self, p)
      if p.m == "bad" then coroutine.yield() end
      return ck.Text{text = p.m}
    end})
    local provider = function(m) return Label{m = m} end
    local host = ck.host(provider)
    host:mount()
    host:update("good")
    resumed(function() host:update("bad") end)
    host:reload(provider)   -- rebuilds with the model the host kept
    assert.are.equal("good", host.root.props.m)
  end)
end)

-- Under a pcall the yield is [yieldAcrossRuntime] at its line too (it was Lua's bare "attempt to
-- yield across a C-call boundary"); the call it was in goes on (nothing yielded).
describe("a yield caught by a pcall inside a runtime call", function()
  local here = debug.getinfo(1, "S").short_src
  local function caught(f)
    local seen = {}
    local ok = coroutine.resume(coroutine.create(function() f(seen) end))
    assert.is_true(ok)
    return seen
  end

  it("is [yieldAcrossRuntime] at the render's line", function()
    local seen = caught(function(seen)
      local R = ck.component("YieldPcallRender", {render = function()
        seen.ok, seen.err = pcall(coroutine.yield, 1)
      end})
      ck.host(function() return R{} end)
    end)
    assert.is_false(seen.ok)
    assert.matches("^%[yieldAcrossRuntime%] " .. here:gsub("%p", "%%%0") .. ":%d+: a coroutine yielded inside a render", seen.err)
  end)

  it("is [yieldAcrossRuntime] in a handler, planned sends too", function()
    local errors = {}
    local a = ck.action(function() local _, e = pcall(coroutine.yield) errors[#errors + 1] = e end)
    caught(function() a:send(nil) a:send(nil) end)
    assert.equal(2, #errors)
    for _, e in ipairs(errors) do assert.matches("^%[yieldAcrossRuntime%] [^\n]*:%d+: ", e) end
  end)

  it("leaves a yield outside runtime calls to Lua", function()
    local co = coroutine.create(function() return pcall(coroutine.yield, 5) end)
    assert.same({true, 5}, {coroutine.resume(co)})
    assert.same({true, true, 6}, {coroutine.resume(co, 6)})
  end)
end)

-- atk-stale 09: it named the line of the tap or update that started the call, and no component.
describe("a yield no pcall catches inside a runtime call", function()
  local here = debug.getinfo(1, "S").short_src:gsub("%p", "%%%0")
  local function failure(f)
    local ok, err = coroutine.resume(coroutine.create(f))
    assert.is_false(ok)
    return tostring(err)
  end

  it("reaches the caller at the yield's line, naming the render or handler", function()
    local renderLine = debug.getinfo(1, "l").currentline + 2
    local Row = ck.component("YieldPlaceRow", {scope = true, initialState = 0, render = function(self, p)
      if p.y then coroutine.yield("r") end
      return ck.Button{title = "b", action = ck.action("pick")} end,
      pick = function(self) coroutine.yield("h") end})
    local handlerLine = renderLine + 2
    local host = ck.host(function(m) return Row{y = m} end, {model = false})
    host:mount()
    for _ = 1, 2 do   -- the second send is answered from its plan
      assert.matches("^%[yieldAcrossRuntime%] " .. here .. ":" .. handlerLine .. ": a coroutine yielded inside YieldPlaceRow%.pick of YieldPlaceRow %(handling \"pick\"%)",
        failure(function() host:tap("Button") end))
    end
    assert.matches("^%[yieldAcrossRuntime%] " .. here .. ":" .. renderLine .. ": a coroutine yielded inside the render of YieldPlaceRow,",
      failure(function() host:update(true) end))
  end)

  it("names an update function and a controller's callback", function()
    ck.controller("YieldPlaceController", {didMount = function(self) if self.component.props.y then coroutine.yield() end end})
    local callbackLine = debug.getinfo(1, "l").currentline - 1
    local C = ck.component("YieldPlace", {scope = true, initialState = 0, render = function() end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local updateLine = debug.getinfo(1, "l").currentline + 1
    local e = failure(function() host.root:updateState(function() coroutine.yield() end, "sync") end)
    assert.matches("^%[yieldAcrossRuntime%] " .. here .. ":" .. updateLine .. ": a coroutine yielded inside an update function queued for YieldPlace,", e)
    local other = ck.host(function() return C{y = true} end)
    assert.matches("^%[yieldAcrossRuntime%] " .. here .. ":" .. callbackLine .. ": a coroutine yielded inside YieldPlaceController%.didMount of YieldPlace,",
      failure(function() other:mount() end))
  end)
end)
