-- host:controlEvent's third argument: the Event's text, as a text field's editing events carry
-- it (docs/api.md, docs/tui.md's text fields).

describe("host:controlEvent's text", function()
  local function field()
    local got = {}
    local C = ck.component("Field", {scope = true,
      view = {class = "UITextField", attributes = {ck.onControl(ck.action("changed"), {"editingChanged", "editingDidEnd"})}},
      changed = function(self, sender, event) got[#got + 1] = {event.type, event.text} end,
    })
    local host = ck.host(function() return C{} end)
    host:mount()
    return host, got
  end

  it("becomes event.text", function()
    local host, got = field()
    assert.are.equal(1, host:controlEvent("Field", "editingChanged", "milk"))
    assert.are.same({"editingChanged", "milk"}, got[1])
    assert.are.equal(1, host:controlEvent(host:find("Field"), "editingChanged", ""))
    assert.are.same({"editingChanged", ""}, got[2])
  end)

  it("is nil when not given, and on a tap", function()
    local host, got = field()
    assert.are.equal(1, host:controlEvent("Field", "editingDidEnd"))
    assert.are.equal("editingDidEnd", got[1][1])
    assert.is_nil(got[1][2])
    assert.are.equal(1, host:controlEvent("Field", "editingDidEnd", nil))
    assert.is_nil(got[2][2])
  end)

  it("is [badArgument] naming it when it is not a string", function()
    local host, got = field()
    assert.error_matches(function() host:controlEvent("Field", "editingChanged", 42) end, "%[badArgument%].*text.*string")
    assert.error_matches(function() host:controlEvent("Field", "editingChanged", {}) end, "%[badArgument%].*text")
    assert.are.equal(0, #got)
  end)

  it("keeps every byte, UTF-8 or not (a text field's text that is not UTF-8, edited)", function()
    local host, got = field()
    assert.are.equal(1, host:controlEvent("Field", "editingChanged", "caf\xe9 \xff\0!"))
    assert.are.same({"editingChanged", "caf\xe9 \xff\0!"}, got[1])
    assert.are.equal(1, host:controlEvent("Field", "editingChanged", "\u{10FF80}x"))
    assert.are.same({"editingChanged", "\u{10FF80}x"}, got[2])
  end)
end)
