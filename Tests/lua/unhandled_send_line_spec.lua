-- [unhandledAction] names the line of an explicit send (atk-new 14: it named the line that built
-- the sender, or a host's provider, and the send's own line appeared nowhere); a tap's send still
-- names the code that gave the view its action.

local here = "Tests/lua/unhandled_send_line_spec.lua:"

describe("an unhandled send", function()
  it("from action:send names the send's line", function()
    local C = ck.component("SendLineC", {render = function() return ck.Button{title = "t"} end})
    local h = ck.host(function() return C{} end); h:mount()
    local btn = h:find("Button")
    local a = ck.action("save")
    local line = debug.getinfo(1, "l").currentline + 1
    local ok, err = pcall(a.send, a, btn)
    assert.is_false(ok)
    assert.matches("[unhandledAction] " .. here .. line .. ': nothing handles "save"', err, 1, true)
  end)

  it("from a controller's didMount names the send's line there", function()
    local line
    ck.controller("SendLineDController", {didMount = function(self)
      line = debug.getinfo(1, "l").currentline + 1
      ck.action("nobody4"):send(self.component)
    end})
    local D = ck.component("SendLineD", {scope = true, render = function() return ck.Text{text = "x"} end})
    local h = ck.host(function() return D{} end)
    local ok, err = pcall(h.mount, h)
    assert.is_false(ok)
    assert.matches("[unhandledAction] " .. here .. line .. ': nothing handles "nobody4"', tostring(err), 1, true)
  end)

  it("from a tap names the render that gave the view its action", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local C = ck.component("SendLineTap", {render = function() return ck.Button{title = "t", action = ck.action("nowhere")} end})
    local h = ck.host(function() return C{} end); h:mount()
    local ok, err = pcall(h.tap, h, "Button")
    assert.is_false(ok)
    assert.matches("[unhandledAction] " .. here .. line .. ': nothing handles "nowhere"', err, 1, true)
  end)
end)
