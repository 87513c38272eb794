-- host:controlEvent with a name that is no UIControl event and that the view it reaches registers
-- no action for sends nothing and says so: [unknownEvent], naming UIControl's events and the
-- view's own (it returned 0 silently). SPEC §7 holds: it returns the number sent, 0.
local warnings = require("captured_warnings")

describe("host:controlEvent with an unknown event name", function()
  local function field()
    local C = ck.component("Field", {scope = true,
      view = {class = "UITextField", attributes = {ck.onControl(ck.action("changed"), {"editingChanged", "refreshRequested"})}},
      changed = function() end,
    })
    local host = ck.host(function() return C{} end)
    host:mount()
    return host
  end

  it("returns 0 and warns [unknownEvent] naming the events there are", function()
    local host = field()
    local sent
    local seen = warnings(function() sent = host:controlEvent("Field", "bogusEvent") end)
    assert.are.equal(0, sent)
    assert.are.equal(1, #seen)
    assert.matches('^%[unknownEvent%] .*"bogusEvent"', seen[1])
    assert.matches("UIControl's events: touchDown, .*editingChanged", seen[1])
    assert.matches('its own: "refreshRequested"', seen[1])
    assert.matches("the UITextField view of Field", seen[1], 1, true)
  end)

  it("warns for a component or view target too", function()
    local host = field()
    local seen = warnings(function()
      host:controlEvent(host:find("Field"), "swipedLeft")
      host:controlEvent(host:find("Field").view, "swipedLeft")
    end)
    assert.are.equal(2, #seen)
    assert.matches('%[unknownEvent%].*"swipedLeft"', seen[2])
  end)

  it("is quiet for a UIControl event the view has no action for, and for the view's own", function()
    local host = field()
    local seen = warnings(function()
      assert.are.equal(0, host:controlEvent("Field", "editingDidBegin"))
      assert.are.equal(1, host:controlEvent("Field", "refreshRequested"))
    end)
    assert.are.equal(0, #seen)
  end)
end)
