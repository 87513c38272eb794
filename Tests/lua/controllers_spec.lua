-- SPEC §4: controllers and their lifecycle.

local function recorder(name, log, extra)
  local def = {}
  for _, cb in ipairs({"willMount", "didMount", "willRemount", "didRemount", "willUnmount", "didUnmount",
                       "willUpdateComponent", "didUpdateComponent", "componentWillRelinquishView",
                       "componentTreeWillAppear", "componentTreeDidDisappear", "invalidateController", "didInit"}) do
    def[cb] = function() log[#log + 1] = cb end
  end
  def.init = function(self, component) log[#log + 1] = "init"; self.initial = component end
  def.componentDidAcquireView = function(self, view) log[#log + 1] = "componentDidAcquireView:" .. view.class end
  for k, v in pairs(extra or {}) do def[k] = v end
  return ck.controller(name, def)
end

local function without(log, name)
  local out = {}
  for _, e in ipairs(log) do if e ~= name then out[#out + 1] = e end end
  return out
end

describe("controller lookup", function()
  it("uses <Name>Controller when the class names none", function()
    ck.controller("ByNameController", {})
    local C = ck.component("ByName", {scope = true})
    local host = ck.host(function() return C{} end)
    assert.are.equal("ByNameController", ck.controllerOf(host.root).name)
  end)

  it("uses an explicit controller class or name", function()
    local K = ck.controller("Shared", {})
    local A = ck.component("UsesClass", {scope = true, controller = K})
    local B = ck.component("UsesName", {scope = true, controller = "Shared"})
    local host = ck.host(function() return ck.Stack{children = {A{}, B{}}} end)
    assert.are.equal("Shared", ck.controllerOf(host:find("UsesClass")).name)
    assert.are.equal("Shared", ck.controllerOf(host:find("UsesName")).name)
    assert.are_not.equal(ck.controllerOf(host:find("UsesClass")), ck.controllerOf(host:find("UsesName")))
  end)

  it("attaches a controller class defined after the scope exists at the scope's next build", function()
    local C = ck.component("DefinedLater", {scope = true, initialState = 0})
    local host = ck.host(function() return C{} end)
    host:mount()
    assert.is_nil(ck.controllerOf(host.root))
    local log = {}
    recorder("DefinedLaterController", log)
    assert.is_nil(ck.controllerOf(host.root))
    host.root:updateState(1, "sync")
    assert.are.equal("DefinedLaterController", ck.controllerOf(host.root).name)
    assert.are.same({"init", "didInit"}, {log[1], log[2]})
  end)

  it("requires a scope", function()
    ck.controller("NoScopeController", {})
    local C = ck.component("NoScope", {})
    assert.error_matches(function() C{} end, "^%[controllerWithoutScope%]")
  end)
end)

describe("controller instances", function()
  it("are created once, with init(component) then didInit, and kept across generations", function()
    local log = {}
    recorder("KeptController", log)
    local C = ck.component("Kept", {scope = true, initialState = 0})
    local host = ck.host(function() return C{} end)
    assert.are.same({"init", "didInit"}, log)
    local k = ck.controllerOf(host.root)
    assert.are.equal(host.root, k.initial)
    host.root:updateState(1, "sync")
    host:update()
    assert.are.equal(k, ck.controllerOf(host.root))
    assert.are.equal(host.root, k.component)
    assert.are.equal(1, #without(log, "x") - 1)
  end)

  it("hold long-lived state on self, and self.view is the mounted view", function()
    ck.controller("StatefulController", {didMount = function(self) self.mounts = (self.mounts or 0) + 1 end})
    local C = ck.component("Stateful", {scope = true, view = {class = "UIView"}})
    local host = ck.host(function() return C{} end)
    local k = ck.controllerOf(host.root)
    assert.is_nil(k.view)
    host:mount()
    host:unmount()
    host:mount()
    assert.are.equal(2, k.mounts)
    assert.are.equal(host.root.view, k.view)
    assert.error_matches(function() k.component = 1 end, "%[badArgument%]")
  end)
end)

describe("controller lifecycle", function()
  local log, host, C
  before_each(function()
    log = {}
    recorder("LifeController", log)
    C = ck.component("Life", {scope = true, initialState = 0, view = function(self, props, state)
      return {class = state == 2 and "UIImageView" or "UIView"} end})
    host = ck.host(function() return C{} end)
  end)

  it("first mount: willMount, acquire view, children, didMount", function()
    host:mount()
    assert.are.same({"init", "didInit", "willMount", "componentDidAcquireView:UIView", "didMount"}, log)
  end)

  it("update while mounted remounts", function()
    host:mount()
    for i = #log, 1, -1 do log[i] = nil end
    host.root:updateState(1, "sync")
    assert.are.same({"willUpdateComponent", "willRemount", "didRemount", "didUpdateComponent"}, log)
  end)

  it("relinquishes and acquires when the view changes", function()
    host:mount()
    for i = #log, 1, -1 do log[i] = nil end
    host.root:updateState(2, "sync")
    assert.are.same({"willUpdateComponent", "willRemount", "componentWillRelinquishView",
                     "componentDidAcquireView:UIImageView", "didRemount", "didUpdateComponent"}, log)
  end)

  it("update while unmounted waits for the next mount", function()
    host:mount()
    host:unmount()
    for i = #log, 1, -1 do log[i] = nil end
    host.root:updateState(1, "sync")
    assert.are.same({}, log)
    host:mount()
    assert.are.same({"willUpdateComponent", "willMount", "componentDidAcquireView:UIView",
                     "didMount", "didUpdateComponent"}, log)
  end)

  it("counts a mount after updates before any mount as the first mount", function()
    host.root:updateState(1, "sync")
    host:mount()
    assert.are.same({"init", "didInit", "willMount", "componentDidAcquireView:UIView", "didMount"}, log)
  end)

  it("unmount: willUnmount, relinquish, didUnmount", function()
    host:mount()
    for i = #log, 1, -1 do log[i] = nil end
    host:unmount()
    assert.are.same({"willUnmount", "componentWillRelinquishView", "didUnmount"}, log)
  end)

  it("never fires didUpdateComponent on the first mount or a remount of the same generation", function()
    host:mount()
    host:unmount()
    host:mount()
    for _, e in ipairs(log) do assert.are_not.equal("didUpdateComponent", e) end
  end)

  it("appear and disappear come from the host", function()
    host:mount()
    host:appear()
    host:disappear()
    assert.are.equal("componentTreeWillAppear", log[#log - 1])
    assert.are.equal("componentTreeDidDisappear", log[#log])
  end)

  it("invalidates once when the host is destroyed, and the controller is dead", function()
    host:mount()
    local k = ck.controllerOf(host.root)
    host:destroy()
    host = nil
    local n = 0
    for _, e in ipairs(log) do if e == "invalidateController" then n = n + 1 end end
    assert.are.equal(1, n)
    assert.is_true(k.isInvalidated)
  end)

  it("invalidates once when the scope leaves the tree, after unmounting", function()
    local l = {}
    recorder("GoneController", l)
    local Gone = ck.component("Gone", {scope = true})
    local h = ck.host(function(show) return ck.Stack{children = {show and Gone{} or nil}} end, {model = true})
    h:mount()
    h:update(false)
    assert.are.same({"init", "didInit", "willMount", "didMount", "willUnmount", "didUnmount", "invalidateController"}, l)
    h:update(false)
    assert.are.equal("invalidateController", l[#l])
  end)

  it("mounts parents before children and calls didMount after all descendants", function()
    local order = {}
    ck.controller("OuterController", {willMount = function() order[#order + 1] = "outer will" end,
                                      didMount = function() order[#order + 1] = "outer did" end})
    ck.controller("InnerController", {willMount = function() order[#order + 1] = "inner will" end,
                                      didMount = function() order[#order + 1] = "inner did" end})
    local Inner = ck.component("Inner", {scope = true})
    local Outer = ck.component("Outer", {scope = true, render = function() return Inner{} end})
    ck.host(function() return Outer{} end):mount()
    assert.are.same({"outer will", "inner will", "inner did", "outer did"}, order)
  end)
end)
