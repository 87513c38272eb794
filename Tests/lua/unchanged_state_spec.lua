-- SPEC §3 and ComponentKit's CKRenderComponentTests: an update re-renders its scope even when it
-- leaves the state as it was (no React-style bail-out); a state view handed back as the new
-- state is the state's own table.

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

  it("re-renders, as ComponentKit's updateState does, and keeps the state's own table", function()
    local t = {v = 1}
    local host, log = counted("SameView", t)
    host.root:updateState(function(s) return s end)
    ck.flush()
    assert.are.same({2, 2, 1}, {host.generation, log.renders, log.updates})
    assert.are.equal(1, host.root.state.v)
    assert.is_false(pcall(function() host.root.state.v = 2 end), "still the read-only view of a table")
  end)

  it("re-renders for the same number and the state view passed as a value", function()
    local n, nlog = counted("SameNumber", 3)
    n.root:updateState(3, "sync")
    n.root:updateState(n.root.state, "sync")
    assert.are.same({3, 3, 2, 3}, {n.generation, nlog.renders, nlog.updates, n.root.state})
  end)

  it("stops a callback that updates unconditionally with [updateLoop]", function()
    ck.controller("ClampController", {didUpdateComponent = function(self)
      self.component:updateState(function(s) return s end)
    end})
    local C = ck.component("Clamp", {scope = true, initialState = {v = 1},
      render = function(self, p, s) return ck.Text{text = "v" .. s.v} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:updateState({v = 2})
    local ok, err = pcall(ck.flush)
    assert.is_false(ok)
    assert.matches("%[updateLoop%]", tostring(err))
  end)
end)
