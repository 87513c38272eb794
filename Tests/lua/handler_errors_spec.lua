-- SPEC §6.3: a handler's error reaches the caller as the handler raised it (busted's
-- assert.has_error compares it with the test's own message); SPEC §1: a function set in
-- ck.config that raises is reported with an id ([configCallbackFailed]) and never raises into
-- the code that warned or sent.

describe("an action handler that raises", function()
  local function host_of(name, boom)
    local H = ck.component(name, {scope = true, boom = boom})
    return ck.host(function() return H{} end)
  end

  it("reaches the caller with its own message, on the full path and from a plan", function()
    local host = host_of("HEPlain", function() error("boom in handler") end)
    local action = host.root:action("boom")
    for _ = 1, 3 do   -- the first send walks, the next are answered from its plan
      assert.has_error(function() action:send() end, "boom in handler")
    end
    host:destroy()
  end)

  it("keeps an error object as it is: a table, a number, nil, a luassert failure", function()
    local code = {code = 42}
    local host = host_of("HEObject", function(self, sender, what)
      if what == "table" then error(code) elseif what == "number" then error(7)
      elseif what == "nil" then error(nil) else assert.are.equal(1, 2) end
    end)
    local action = host.root:action("boom", {"string"})
    for _ = 1, 2 do   -- the full path, then the plan
      local _, err = pcall(action.send, action, nil, "table")
      assert.are.equal(code, err)
      _, err = pcall(action.send, action, nil, "number")
      assert.are.equal(7, err)
      assert.has_error(function() action:send(nil, "table") end, {code = 42})
      assert.are.same({false, nil}, {pcall(action.send, action, nil, "nil")})
      _, err = pcall(action.send, action, nil, "failure")
      assert.are.equal("table", type(err))
      assert.matches("Expected objects to be equal", tostring(err))
    end
    host:destroy()
  end)

  it("keeps a controller handler's and a block action's message too", function()
    ck.controller("HEKeptController", {boom = function() error("boom in controller") end})
    local K = ck.component("HEKept", {scope = true})
    local host = ck.host(function() return K{} end)
    assert.has_error(function() host.root:action("boom"):send() end, "boom in controller")
    assert.has_error(function() ck.action(function() error("boom in block") end):send() end, "boom in block")
    host:destroy()
  end)
end)

describe("a ck.config function that raises", function()
  after_each(function()
    ck.config.onTrace = nil
    ck.config.onWarning = nil
  end)

  it("onTrace: a [configCallbackFailed] warning naming it, with its message and traceback; the send goes on", function()
    local warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
    ck.config.onTrace = function() error("boom in onTrace") end
    local handled = false
    local H = ck.component("HETraced", {scope = true, hit = function() handled = true end})
    local host = ck.host(function() return H{} end)
    assert.is_true(host.root:action("hit"):send())
    assert.is_true(handled)
    assert.matches("^%[configCallbackFailed%] ck%.config%.onTrace %(given a trace entry%) raised: [^\n]*handler_errors_spec%.lua:%d+: boom in onTrace\nstack traceback:", warnings[1])
    host:destroy()
  end)
end)
