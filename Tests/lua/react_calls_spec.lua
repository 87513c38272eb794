-- A React method called on a component or controller gets ckrun's name, from the table that
-- warns about React names in definitions (atk-apps3 03: self:setState{…} raised only Lua's
-- "attempt to call a nil value (method 'setState')").
describe("a React method called on a component or controller", function()
  local function raised(f)
    local ok, err = pcall(f)
    assert.is_false(ok)
    return tostring(err)
  end

  it("self:setState names updateState, with [reactName] and the caller's line", function()
    local A = ck.component("ReactCallA", {scope = true, initialState = {n = 0},
      render = function(self, p, s) return ck.Button{title = "n " .. s.n, action = self:action("inc")} end,
      inc = function(self) self:setState({n = self.state.n + 1}) end})
    local h = ck.host(A); h:mount()
    local err = raised(function() h:tap("Button") end)
    assert.matches("^[^\n]*%[reactName%]", err)
    assert.matches("setState is React's name", err, 1, true)
    assert.matches("self:updateState(value)", err, 1, true)
    assert.matches("react_calls_spec.lua:14", err, 1, true)
    h:destroy()
  end)

  it("this.forceUpdate() and a lifecycle name called are named too", function()
    local B = ck.component("ReactCallB", {scope = true, render = function() end})
    local h = ck.host(B); h:mount()
    local c = h.root
    assert.matches("%[reactName%].*updateState%(function%(s%) return s end%)", raised(function() c.forceUpdate() end))
    assert.matches("%[reactName%].*didMount", raised(function() c:componentDidMount() end))
    h:destroy()
  end)

  it("on a controller points at its component's updateState", function()
    local C = ck.component("ReactCallC", {scope = true, render = function() end})
    local seen
    ck.controller("ReactCallCController", {didMount = function(self)
      local ok, err = pcall(function() self:setState({}) end)
      seen = tostring(err)
    end})
    local h = ck.host(C); h:mount()
    assert.matches("%[reactName%].*self%.component:updateState", seen)
    h:destroy()
  end)

  it("leaves a class's own method of that name alone, and other unknown names nil", function()
    local D
    local warnings = require("captured_warnings")(function()
      D = ck.component("ReactCallD", {scope = true, render = function() end,
        setState = function(self, v) return "mine " .. v end})
    end)
    -- The definition warns from the same table: ckrun's name.
    assert.are.equal(1, #warnings)
    assert.matches("^%[suspiciousName%].*\"setState\" is React's name.*self:updateState%(value%)", warnings[1])
    local h = ck.host(D); h:mount()
    assert.are.equal("mine x", h.root:setState("x"))
    assert.is_nil(h.root.notAMethod)
    h:destroy()
  end)
end)
