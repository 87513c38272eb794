-- A host's lifecycle under re-entrancy and failure (docs/api.md, Hosts: "Host operations from
-- callbacks"): an operation called from a callback of the host's running pass is deferred to
-- the pass's end, and every lifecycle pairing holds on every path.

local log
local function note(name) return function(self) log[#log + 1] = name .. " " .. self.component.props.id end end

local callbacks = {"willMount", "didMount", "willUnmount", "didUnmount", "componentDidAcquireView",
                   "componentWillRelinquishView", "invalidateController", "didUpdateComponent",
                   "componentTreeWillAppear", "componentTreeDidDisappear"}

-- Rows 1 and 2 whose controller logs every callback; `hooks[name](self)` runs after the note.
local function rows(hooks)
  local def = {}
  for _, name in ipairs(callbacks) do
    def[name] = function(self, ...)
      note(name)(self)
      if hooks[name] then hooks[name](self, ...) end
    end
  end
  ck.controller("RowController", def)
  local Row = ck.component("Row", {scope = function(p) return p.id end, view = {class = "UIView"}})
  return function() return ck.Stack{children = {Row{id = 1}, Row{id = 2}}} end
end

local function once(id, f)
  local done = false
  return function(self)
    if not done and self.component.props.id == id then done = true; f(self) end
  end
end

local function count(list, name)
  local n = 0
  for _, x in ipairs(list) do if x == name then n = n + 1 end end
  return n
end

-- Each row's callbacks in order, so that assertions do not depend on the order between rows.
local function of(id)
  local out = {}
  for _, line in ipairs(log) do
    local name, n = line:match("^(%S+) (%d+)$")
    if tonumber(n) == id then out[#out + 1] = name end
  end
  return out
end

describe("host operations called from a callback of the host's own pass", function()
  before_each(function() log = {} end)

  local unmountedThenInvalidated = {"willUnmount", "componentWillRelinquishView", "didUnmount", "invalidateController"}

  it("destroy() from willUnmount runs after the unmount: every row unmounts whole, then is invalidated", function()
    local h
    h = ck.host(rows{willUnmount = once(1, function() h:destroy() end)})
    h:mount()
    local k2 = ck.controllerOf(h:find("Row#2"))
    log = {}
    h:unmount()
    assert.are.same(unmountedThenInvalidated, of(1))
    assert.are.same(unmountedThenInvalidated, of(2))
    assert.is_nil(k2.view)
    assert.is_true(h.isDestroyed)
  end)

  it("destroy() from willMount or didUpdateComponent lets the mount or update pass finish first", function()
    for _, hook in ipairs({"willMount", "didUpdateComponent"}) do
      local h
      h = ck.host(rows{[hook] = once(1, function() h:destroy() end)})
      if hook == "didUpdateComponent" then h:mount(); h:update(nil) else h:mount() end
      for id = 1, 2 do
        local seen = of(id)
        assert.are.same(unmountedThenInvalidated, {table.unpack(seen, #seen - 3)}, hook .. " row " .. id)
        assert.are.equal(1, count(seen, "willMount"), hook .. " row " .. id)
        assert.are.equal(1, count(seen, "didMount"), hook .. " row " .. id)
      end
      assert.is_true(h.isDestroyed)
      log = {}
    end
  end)

  it("a call made after destroy() in the same pass raises [hostDestroyed] at once; the pass still ends whole", function()
    local h, err
    h = ck.host(rows{didMount = once(1, function()
      h:destroy()
      h:destroy()
      err = select(2, pcall(h.unmount, h))
    end)})
    h:mount()
    assert.matches("^%[hostDestroyed%]", err)
    assert.is_true(h.isDestroyed)
    assert.are.same({"willMount", "componentDidAcquireView", "didMount", "willUnmount",
                     "componentWillRelinquishView", "didUnmount", "invalidateController"}, of(2))
  end)

  it("mount() from didUnmount mounts once the unmount is done", function()
    local h
    h = ck.host(rows{didUnmount = once(1, function() h:mount() end)})
    h:mount()
    log = {}
    h:unmount()
    assert.are.same({"willUnmount", "componentWillRelinquishView", "didUnmount", "willMount", "componentDidAcquireView", "didMount"}, of(1))
    assert.is_true(h.isMounted)
    assert.are.equal(2, #h.view.subviews)
    assert.is_true(h:find("Row#1").isMounted)
    log = {}
    h:unmount()
    assert.are.same({"willUnmount", "componentWillRelinquishView", "didUnmount"}, of(2))
    assert.is_false(h.isMounted)
  end)

  it("update(model) from didMount builds after the mount: no row of the old generation mounts late", function()
    local h
    local Row = ck.component("Row", {scope = function(p) return p.id end, view = {class = "UIView"}})
    local def = {}
    for _, name in ipairs(callbacks) do def[name] = note(name) end
    def.didMount = function(self)
      note("didMount")(self)
      if self.component.props.id == 1 and h.generation == 1 then
        h:update({2})
        assert.are.equal(1, h.generation)   -- deferred: the mount pass is still running
      end
    end
    ck.controller("RowController", def)
    h = ck.host(function(ids)
      local children = {}
      for i, id in ipairs(ids) do children[i] = Row{id = id} end
      return ck.Stack{children = children}
    end, {model = {1, 2}})
    h:mount()
    assert.are.equal(2, h.generation)
    assert.are.same({"willMount", "componentDidAcquireView", "didMount", "willUnmount",
                     "componentWillRelinquishView", "didUnmount", "invalidateController"}, of(1))
    assert.are.equal(1, #h.view.subviews)
  end)

  it("operations deferred in one pass run in call order", function()
    local h
    h = ck.host(rows{didMount = once(1, function() h:unmount(); h:mount(); h:unmount() end)})
    h:mount()
    assert.is_false(h.isMounted)
    assert.are.equal(0, #h.view.subviews)
    for id = 1, 2 do
      assert.are.same({"willMount", "componentDidAcquireView", "didMount", "willUnmount", "componentWillRelinquishView",
                       "didUnmount", "willMount", "componentDidAcquireView", "didMount", "willUnmount",
                       "componentWillRelinquishView", "didUnmount"}, of(id))
    end
  end)

  it("a chain of callbacks that keeps deferring stops with [operationLoop]", function()
    local h, looping = nil, true
    h = ck.host(rows{didMount = function() if looping then h:unmount() end end,
                     didUnmount = function() if looping then h:mount() end end})
    local ok, err = pcall(h.mount, h)
    assert.is_false(ok)
    assert.matches("^%[operationLoop%]", err)
    looping = false
    h:destroy()
    assert.are.same(unmountedThenInvalidated, {table.unpack(of(2), #of(2) - 3)})
  end)
end)

describe("a destroy() asked for during a pass", function()
  it("is never dropped, even when a chain of deferred operations hits [operationLoop] with it queued", function()
    for n = 40, 51 do   -- the chain stops at its 51st mount
      local h, mounts = nil, 0
      h = ck.host(rows{
        didMount = function(self)
          if self.component.props.id ~= 1 then return end
          mounts = mounts + 1
          pcall(h.unmount, h)
          if mounts == n then h:destroy() end
        end,
        didUnmount = function(self) if self.component.props.id == 1 then pcall(h.mount, h) end end})
      pcall(h.mount, h)
      assert.is_true(h.isDestroyed, "destroy asked for at mount " .. n)
    end
  end)
end)

describe("appear and disappear pair", function()
  before_each(function() log = {} end)

  it("disappear() after unmount() still tells the controllers that appeared", function()
    local h = ck.host(rows{})
    h:mount(); h:appear(); h:unmount(); h:disappear()
    assert.are.same({"willMount", "componentDidAcquireView", "didMount", "componentTreeWillAppear", "willUnmount",
                     "componentWillRelinquishView", "didUnmount", "componentTreeDidDisappear"}, of(1))
    assert.are.equal(1, count(of(2), "componentTreeDidDisappear"))
  end)

  it("an unmounted host's appear() and disappear() reach its controllers, once each", function()
    local h = ck.host(rows{})
    h:appear(); h:appear(); h:disappear(); h:disappear()
    assert.are.same({"componentTreeWillAppear", "componentTreeDidDisappear"}, of(1))
    assert.are.same({"componentTreeWillAppear", "componentTreeDidDisappear"}, of(2))
  end)

  it("a controller whose scope leaves an appeared tree is told it disappeared before it is invalidated", function()
    local show = true
    local Row = ck.component("Row", {scope = function(p) return p.id end})
    local def = {}
    for _, name in ipairs(callbacks) do def[name] = note(name) end
    ck.controller("RowController", def)
    local h = ck.host(function() return ck.Stack{children = {Row{id = 1}, show and Row{id = 2}}} end)
    h:appear()
    show = false
    h:update(nil)
    assert.are.same({"componentTreeWillAppear", "componentTreeDidDisappear", "invalidateController"}, of(2))
    h:disappear()
    assert.are.same({"componentTreeWillAppear", "componentTreeDidDisappear"}, of(1))
  end)

  it("destroy() of an appeared host tells it disappeared before invalidating", function()
    local h = ck.host(rows{})
    h:appear(); h:destroy()
    assert.are.same({"componentTreeWillAppear", "componentTreeDidDisappear", "invalidateController"}, of(1))
  end)
end)

describe("a controller callback that raises in ck.host's first build", function()
  before_each(function() log = {} end)

  it("leaves no host behind: every controller made is invalidated, then ck.host raises", function()
    ck.controller("RowController", {
      didInit = function(self)
        log[#log + 1] = "didInit " .. self.component.props.id
        if self.component.props.id == 1 then error("didInit failed") end
      end,
      invalidateController = note("invalidateController"),
    })
    local Row = ck.component("Row", {scope = function(p) return p.id end})
    local ok, err = pcall(ck.host, function() return ck.Stack{children = {Row{id = 1}, Row{id = 2}}} end)
    assert.is_false(ok)
    assert.matches("^%[callbackFailed%] RowController.didInit", err)
    assert.are.same({"didInit", "invalidateController"}, of(1))
    assert.are.same({"didInit", "invalidateController"}, of(2))
  end)
end)
