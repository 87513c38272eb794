-- `false` is "no action" wherever nil is (`action = enabled and a`), as it is "no child".

describe("false as an action", function()
  it("is no action for a built-in's action prop", function()
    local enabled = false
    local host = ck.host(function() return ck.Button{title = "Save", action = enabled and ck.action("save")} end)
    host:mount()
    assert.are.equal(0, host:tap("Button"))
  end)

  it("is no action for a class's typed action prop", function()
    local C = ck.component("FalseProp", {actions = {onPick = {"int"}}})
    assert.has_no.errors(function() ck.host(function() return C{onPick = false} end) end)
  end)

  it("makes a no-op attribute of ck.onTap and ck.onControl", function()
    assert.is_nil(ck.onTap(false).action)
    assert.is_nil(ck.onControl(false).action)
    local V = ck.component("FalseTap", {view = {class = "UIButton", attributes = {ck.onTap(false), ck.onControl(false)}}})
    local host = ck.host(function() return V{} end)
    host:mount()
    assert.are.equal(0, host:tap("FalseTap"))
  end)

  it("is still refused where true is given", function()
    assert.matches("%[badArgument%]", select(2, pcall(ck.onTap, true)))
    assert.matches("%[typeMismatch%]", select(2, pcall(ck.Button, {action = true})))
  end)
end)
