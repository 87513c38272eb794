-- Fault isolation and bad input: errors reach the caller, the host stays consistent.

local function consistent(host)
  -- The host can still update, unmount and mount.
  host:update(host.root and host.root.props or nil)
  host:unmount()
  host:mount()
  return true
end

describe("fault isolation", function()
  it("keeps the previous generation mounted when a render raises", function()
    local broken = false
    ck.controller("IsoController", {})
    local C = ck.component("Iso", {scope = true, initialState = 1, view = {class = "UIView"},
      render = function() if broken then error("render exploded") end return ck.Text{text = "ok"} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local root, view, k = host.root, host.root.view, ck.controllerOf(host.root)
    broken = true
    host.root:updateState(2)
    assert.error_matches(function() ck.flush() end, "^%[buildFailed%].*render exploded")
    assert.error_matches(function() host:update() end, "^%[buildFailed%].*render exploded")
    assert.are.equal(root, host.root)
    assert.are.equal(view, host.root.view)
    assert.is_true(host.root.isMounted)
    assert.are.equal(k, ck.controllerOf(host.root))
    broken = false
    ck.flush()
    assert.are.equal(1, host.root.state, "the failed build's update was dropped")
    host.root:updateState(2)
    ck.flush()
    assert.are.equal(2, host.root.state)
    assert.is_true(consistent(host))
  end)

  it("reports a handler's error to the caller and keeps serving", function()
    local C = ck.component("IsoHandler", {scope = true, fail = function() error("handler exploded") end, ok = function() end})
    local host = ck.host(function() return C{} end)
    host:mount()
    assert.error_matches(function() host.root:action("fail"):send(nil) end, "handler exploded")
    assert.is_true(host.root:action("ok"):send(nil))
    assert.is_true(consistent(host))
  end)

  it("reports a lifecycle callback's error after finishing the mount", function()
    ck.controller("IsoLifeController", {didMount = function() error("didMount exploded") end})
    local C = ck.component("IsoLife", {scope = true, render = function() return ck.Text{text = "child"} end})
    local host = ck.host(function() return C{} end)
    assert.error_matches(function() host:mount() end, "didMount exploded")
    assert.is_true(host.isMounted)
    assert.is_true(host:find("Text").isMounted)
    host:unmount()
    assert.is_false(host:find("Text").isMounted)
  end)

  it("turns a finalizer's error into a warning", function()
    local warnings = {}
    warn("@on")  -- finalizer errors are warnings: shown (and handed over) only while warnings are on
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    setmetatable({}, {__gc = function() error("gc exploded") end})
    collectgarbage()
    collectgarbage()
    warn("@off")
    setmetatable({}, {__gc = function() error("while off") end})
    collectgarbage()
    collectgarbage()
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.is_not_nil(warnings[1]:find("^%[finalizerError%]"))
    assert.is_not_nil(warnings[1]:find("gc exploded", 1, true))
  end)

  it("refuses a yield across a render and leaves the host as it was", function()
    local C = ck.component("IsoYield", {scope = true, initialState = 0, render = function(self, p, s) if s > 0 then coroutine.yield() end end})
    local host = ck.host(function() return C{} end)
    local co = coroutine.create(function() host.root:updateState(1, "sync") end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_not_nil(tostring(err):find("^%[yieldAcrossRuntime%]"))
    assert.are.equal(0, host.root.state)
  end)
end)

describe("bad input", function()
  local function catalogued(f, id, argument)
    local ok, err = pcall(f)
    assert.is_false(ok)
    assert.is_not_nil(tostring(err):find("^%[" .. id .. "%]"), tostring(err))
    if argument then assert.is_not_nil(tostring(err):find(argument, 1, true), tostring(err)) end
  end

  it("names the argument for wrong types and missing arguments", function()
    catalogued(function() ck.component() end, "badArgument", "argument #1 (name)")
    catalogued(function() ck.component(1) end, "badArgument", "argument #1 (name)")
    catalogued(function() ck.component("X", 5) end, "badArgument", "argument #2 (def)")
    catalogued(function() ck.controller(nil) end, "badArgument", "argument #1 (name)")
    catalogued(function() ck.host() end, "badArgument", "argument #1 (provider)")
    catalogued(function() ck.host(function() end, 5) end, "badArgument", "argument #2 (opts)")
    catalogued(function() ck.action() end, "badArgument", "argument #1 (target)")
    catalogued(function() ck.action("x", 5) end, "badArgument", "types")
    catalogued(function() ck.action("x", {5}) end, "badArgument", "types[1]")
    catalogued(function() ck.struct() end, "badArgument", "argument #1 (name)")
    catalogued(function() ck.struct("S", {x = "nope"}) end, "unknownType")
    catalogued(function() ck.onTap(5) end, "badArgument", "argument #1 (action)")
    catalogued(function() ck.onControl(ck.action("x"), 5) end, "badArgument", "argument #2 (events)")
    catalogued(function() ck.nextResponder(5) end, "badArgument", "argument #1 (responder)")
    catalogued(function() ck.responderChain(nil) end, "badArgument", "argument #1 (responder)")
    catalogued(function() ck.targetForAction(ck.Text{}, nil) end, "badArgument", "argument #2 (selector)")
    catalogued(function() ck.trace(nil) end, "badArgument", "argument #1 (fn)")
    catalogued(function() ck.after("soon", function() end) end, "badArgument", "argument #1 (seconds)")
    catalogued(function() ck.after(1) end, "badArgument", "argument #2 (fn)")
    catalogued(function() ck.componentOf({}) end, "badArgument", "argument #1 (view)")
    catalogued(function() ck.controllerOf("x") end, "badArgument", "argument #1 (component)")
    catalogued(function() ck.registerControlClass() end, "badArgument", "argument #1 (viewClass)")
    catalogued(function() ck.actionSend(5) end, "badArgument", "argument #1 (action)")
  end)

  it("checks method receivers", function()
    local host = ck.host(function() return ck.Text{text = "x"} end)
    -- Numbered as Lua numbers a method's arguments: self is not counted (`host:tap(5)`: #1).
    catalogued(function() host.mount() end, "badArgument", "host:mount: self must be")
    catalogued(function() host.find(host) end, "badArgument", "argument #1 (query)")
    catalogued(function() host:tap(5) end, "badArgument", "argument #1 (query)")
    catalogued(function() host:controlEvent("Text") end, "badArgument", "argument #2 (eventName)")
    catalogued(function() ck.action("x").send({}) end, "badArgument", "self must be")
    catalogued(function() host.root.updateState({}, 1) end, "badArgument", "self must be")
    catalogued(function() host.root:action(5) end, "badArgument", "argument #1 (selector)")
  end)

  it("handles huge strings and NUL bytes", function()
    local huge = string.rep("x", 1 << 20)
    catalogued(function() ck.action(huge):send(ck.Text{}) end, "notMounted")
    local nul = "a\0b"
    -- Names are UTF-8 without NUL (docs/api.md): a NUL would cut or merge them.
    catalogued(function() ck.component(nul, {}) end, "badArgument", "without NUL bytes")
    catalogued(function() ck.action("x", {"c\0d"}) end, "badArgument", "without NUL bytes")
    local host = ck.host(function() return ck.Text{text = nul} end)
    host:mount()
    assert.are.equal(nul, host.root.view.attributes.text)
    assert.is_nil(host:find(huge))
  end)

  it("refuses objects of a destroyed host", function()
    local C = ck.component("Doomed", {scope = true})
    local host = ck.host(function() return C{} end)
    local root = host.root
    host:destroy()
    catalogued(function() host:mount() end, "hostDestroyed")
    catalogued(function() root:updateState(1) end, "hostDestroyed")
    assert.is_false(ck.action(function() end) == nil)
  end)

  it("cannot tamper with runtime objects", function()
    local host = ck.host(function() return ck.Text{text = "x"} end)
    for _, obj in ipairs({host, host.root, host.view, ck.action("x"), host.root.class}) do
      assert.are.equal("locked", getmetatable(obj))
      assert.is_false(pcall(setmetatable, obj, {}))
    end
    catalogued(function() host.root = 5 end, "badArgument")
    catalogued(function() host.view.class = "X" end, "badArgument")
    catalogued(function() ck.action("x").selector = "y" end, "badArgument")
  end)
end)
