-- SPEC §3: a build re-renders the components whose scopes changed. An update that leaves the
-- state rawequal to what it was (the same table, the view it was given, the same number)
-- changes nothing: no build, no generation, no lifecycle callback (React's and Roact's bail-out).

describe("an update that leaves the state as it was", function()
  local function counted(name, initial)
    local log = {renders = 0, updates = 0}
    ck.controller(name .. "Controller", {didUpdateComponent = function() log.updates = log.updates + 1 end})
    local C = ck.component(name, {scope = true, initialState = initial,
      render = function(self, props, s) log.renders = log.renders + 1 return ck.Text{text = tostring(s)} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    return host, log
  end

  it("builds nothing when the function returns the view it was given", function()
    local host, log = counted("SameView", {v = 1})
    host.root:updateState(function(s) return s end)
    ck.flush()
    assert.are.same({1, 1, 0}, {host.generation, log.renders, log.updates})
  end)

  it("builds nothing for the same table, the state view or the same number as a value", function()
    local t = {v = 1}
    local host, log = counted("SameValue", t)
    host.root:updateState(t, "sync")
    host.root:updateState(host.root.state, "sync")
    local n, nlog = counted("SameNumber", 3)
    n.root:updateState(3, "sync")
    n.root:updateState(function(x) return x + 0 end, "sync")
    assert.are.same({1, 1, 0}, {host.generation, log.renders, log.updates})
    assert.are.same({1, 1, 0}, {n.generation, nlog.renders, nlog.updates})
  end)

  it("builds when the folded updates change it, even if one of them did not", function()
    local host, log = counted("SomeChange", 1)
    host.root:updateState(function(n) return n end)
    host.root:updateState(function(n) return n + 1 end)
    ck.flush()
    assert.are.same({2, 2, 1, 2}, {host.generation, log.renders, log.updates, host.root.state})
  end)

  it("re-renders only the scopes that changed when several had updates", function()
    local renders = {}
    local Row = ck.component("BailRow", {scope = function(p) return p.id end, initialState = 0,
      render = function(self, p, s) renders[p.id] = (renders[p.id] or 0) + 1 return ck.Text{text = p.id .. ":" .. s} end})
    local host = ck.host(function() return ck.Stack{children = {Row{id = "a"}, Row{id = "b"}}} end)
    host:mount()
    host:find("BailRow#a"):updateState(0)
    host:find("BailRow#b"):updateState(5)
    ck.flush()
    assert.are.same({a = 1, b = 2}, renders)
    assert.are.same({0, 5}, {host:find("BailRow#a").state, host:find("BailRow#b").state})
  end)

  it("lets a controller clamp its state in didUpdateComponent without an update loop", function()
    ck.controller("ClampController", {didUpdateComponent = function(self)
      self.component:updateState(function(s) if s.v > 3 then return {v = 3} end return s end)
    end})
    local C = ck.component("Clamp", {scope = true, initialState = {v = 1},
      render = function(self, p, s) return ck.Text{text = "v" .. s.v} end,
      poke = function(self) self:updateState(function(s) return {v = s.v + 5} end) end})
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:poke()
    ck.flush()
    assert.are.same({3, 3}, {host.root.state.v, host.generation})
  end)
end)
