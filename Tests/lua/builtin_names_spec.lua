-- A component class named like a built-in (React's habit of wrapping the platform's button in a
-- "Button" of one's own): the controller found by name is the user's class's alone, and the
-- name taken is warned about (attack report, break 10).
describe("a component class with a built-in's name", function()
  local warnings
  before_each(function()
    warnings = {}
    ck.config.onWarning = function(m) warnings[#warnings + 1] = m end
  end)
  after_each(function() ck.config.onWarning = nil end)

  it("keeps its controller, and the built-in takes none by name", function()
    local mounted = 0
    local Button = ck.component("Button", {scope = true,
      render = function(self, p) return ck.Button{title = p.label, action = p.onPress} end})
    ck.controller("ButtonController", {didMount = function() mounted = mounted + 1 end})
    local App = ck.component("BuiltinNameApp", {scope = true, initialState = 0,
      render = function(self, p, n) return ck.Stack{children = {Button{label = "press", onPress = self:action("inc")}}} end,
      inc = function(self) self:updateState(function(n) return n + 1 end) end})
    local host = ck.host(function() return App{} end)
    host:mount()
    assert.are.equal(1, mounted)
    local both = host:findAll("Button")
    assert.are.equal(2, #both)
    assert.is_not_nil(ck.controllerOf(both[1]))
    assert.is_nil(ck.controllerOf(both[2]))
    assert.are.equal(1, host:tap("Button"))
    ck.flush()
    assert.are.equal(1, host.root.state)
    host:destroy()
  end)

  it("is warned about once, at the line that defined it", function()
    ck.component("Text", {render = function() return nil end})
    ck.component("Text", {render = function() return nil end})
    assert.are.equal(1, #warnings)
    assert.matches('^%[suspiciousName%] Tests/lua/builtin_names_spec.lua:34: ck.component%("Text"%): Text is the name of the built%-in ck.Text', warnings[1])
  end)
end)
