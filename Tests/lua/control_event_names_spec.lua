-- A control event name a letter or two (or only the case) from a UIControl event's is warned
-- about once, naming the event meant (atk-text 14); an app's own event names pass (SPEC: any
-- name may be sent). A [noMatch] whose query is a mounted view's class says queries name
-- components (atk-text 05).
local warnings = require("captured_warnings")

describe("control event names", function()
  it("warn [suspiciousName] once when near a UIControl event, naming it", function()
    local seen = warnings(function()
      ck.onControl(ck.action("a"), {"editingchanged"})
      ck.onControl(ck.action("a"), {"editingchanged"})
      ck.onControl(ck.action("a"), "valueChangd")
    end)
    assert.are.equal(2, #seen)
    assert.matches('^%[suspiciousName%].*"editingchanged".*did you mean "editingChanged"', seen[1])
    assert.matches('"valueChangd".*did you mean "valueChanged"', seen[2])
  end)

  it("warn for a Button's events too", function()
    local seen = warnings(function()
      local host = ck.host(function() return ck.Button{title = "t", action = ck.action("a"), events = {"touchupinside"}} end)
      host:mount()
    end)
    assert.are.equal(1, #seen)
    assert.matches('"touchupinside".*did you mean "touchUpInside"', seen[1])
  end)

  it("pass when spelt right or an app's own", function()
    local seen = warnings(function()
      ck.onControl(ck.action("a"), {"editingChanged", "editingDidEndOnExit", "refreshRequested", "swipedLeft"})
    end)
    assert.are.equal(0, #seen)
  end)
end)

describe("[noMatch] for a view class", function()
  it("says queries match component names", function()
    local host = ck.host(function()
      return ck.View{class = "UITextField", attributes = {ck.onControl(ck.action("a"), "editingChanged")}}
    end)
    host:mount()
    assert.error_matches(function() host:controlEvent("UITextField", "editingChanged", "milk") end,
      '%[noMatch%].*queries match component names, not view classes: a ck.View{class = "UITextField"} is View: try "View"')
    assert.error_matches(function() host:tap("Nothing") end, "%[noMatch%]")
  end)
end)
