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

-- Attack atk-mem 08: api.md's own idiom (compare, then update) converges, NaN state included.
describe("api.md's guarded update in didUpdateComponent", function()
  it("converges, and builds nothing more for a NaN state", function()
    local function guarded(name, initial)
      ck.controller(name .. "Controller", {didUpdateComponent = function(self)
        local s = self.component.state
        if s.v > 3 then self.component:updateState({v = 3}) end
      end})
      local C = ck.component(name, {scope = true, initialState = initial,
        render = function(_, _, s) return ck.Text{text = tostring(s.v)} end})
      local host = ck.host(function() return C{} end)
      host:mount()
      return host
    end
    local host = guarded("GuardedClamp", {v = 1})
    host.root:updateState({v = 9})
    ck.flush()
    assert.are.same({3, 3}, {host.root.state.v, host.generation})
    local nan = guarded("GuardedNaN", {v = 0 / 0})
    nan.root:updateState(function(s) return s end)
    ck.flush()
    assert.are.equal(2, nan.generation)
    assert.is_true(nan.root.state.v ~= nan.root.state.v)
  end)
end)

-- Attack atk-mem 13: an update function returning nil sets the state to nil (fn(old) -> new, as
-- ComponentKit's), and warns where the state was a table, since React and Roact skip the update.
describe("an update function that returns nil", function()
  it("sets the state to nil and warns [suspiciousUpdate] at the function's line", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    local C = ck.component("NilUpdate", {scope = true, initialState = {count = 5},
      render = function(_, _, s) return ck.Text{text = tostring(s and s.count)} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local line = debug.getinfo(1, "l").currentline + 1
    host.root:updateState(function(old) return nil end)
    ck.flush()
    host.root:updateState(function(old) return nil end)   -- nil to nil: nothing to warn about
    ck.flush()
    host.root:updateState(nil)
    ck.flush()
    ck.config.onWarning = nil
    assert.is_nil(host.root.state)
    assert.are.equal(4, host.generation)
    assert.are.equal(1, #warnings)
    assert.matches("^%[suspiciousUpdate%] [^:]*unchanged_state_spec%.lua:" .. line .. ": an update function of NilUpdate returned nil, so its state, a table before, is nil now", warnings[1])
    assert.matches("Return old to keep the state", warnings[1])
  end)

  it("names the row whose update returned nil by its path", function()
    local warnings = {}
    ck.config.onWarning = function(w) warnings[#warnings + 1] = w end
    local Row = ck.component("NilRow", {scope = function(p) return p.id end, initialState = {n = 1},
      render = function() return ck.Text{text = "r"} end})
    local host = ck.host(function() return ck.Stack{children = {Row{id = 1}, Row{id = 2}}} end)
    host:mount()
    host:find("NilRow#2"):updateState(function() return nil end)
    ck.flush()
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.matches("an update function of Stack/NilRow#2 returned nil", warnings[1])
  end)

  it("warns after the state was kept with 'return old' too", function()
    local warnings = {}
    ck.config.onWarning = function(w) warnings[#warnings + 1] = w end
    local C = ck.component("NilAfterOld", {scope = true, initialState = {n = 1},
      render = function() return ck.Text{text = "x"} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    host.root:updateState(function(old) return old end)
    ck.flush()
    host.root:updateState(function() return nil end)
    ck.flush()
    ck.config.onWarning = nil
    assert.are.equal(1, #warnings)
    assert.matches("^%[suspiciousUpdate%]", warnings[1])
  end)
end)
