--- host:tap and host:controlEvent send each of a view's actions from the view's mounted
--- component at that moment (SPEC §7): an earlier action of the same tap may rebuild, unmount or
--- destroy the host, and a view with no mounted component sends nothing more.

local function tapped(make_first, extra)
  local log = {}
  local host
  local Box = ck.component("TsBox", {scope = true, view = function(self, p)
    return {class = "UIButton", attributes = {
      ck.onTap(ck.action(function(sender) log[#log + 1] = "first " .. sender.generation; make_first(host, p) end)),
      ck.onTap(ck.action("second")),
      ck.onControl(ck.action("second")),
      extra,
    }}
  end})
  local Top = ck.component("TsTop", {scope = true, render = function(self, p) return Box{m = p.m} end,
    second = function(self, sender) log[#log + 1] = "second " .. sender.generation .. " " .. tostring(sender.isMounted) end})
  host = ck.host(function(m) return Top{m = m} end, {model = 1})
  host:mount()
  return host, log
end

describe("a tap's later actions", function()
  it("go from the view's component of the generation an earlier action built", function()
    local host, log = tapped(function(h, p) h:update(p.m + 1) end)
    assert.are.equal(3, host:tap("TsBox"))
    assert.are.same({"first 1", "second 2 true", "second 2 true"}, log)
  end)

  it("are not sent once an earlier action unmounted the host", function()
    local host, log = tapped(function(h) h:unmount() end)
    assert.are.equal(1, host:tap("TsBox"))
    assert.are.same({"first 1"}, log)
  end)

  it("are not sent once an earlier action destroyed the host", function()
    local host, log = tapped(function(h) h:destroy() end)
    assert.are.equal(1, host:tap("TsBox"))
    assert.are.same({"first 1"}, log)
  end)

  it("of a controlEvent stop as a tap's do", function()
    local log, host = {}
    local Switch = ck.component("TsSwitch", {view = {class = "UISwitch", attributes = {
      ck.onControl(ck.action(function() log[#log + 1] = "first"; host:unmount() end), "valueChanged"),
      ck.onControl(ck.action(function() log[#log + 1] = "second" end), "valueChanged"),
    }}})
    host = ck.host(function() return Switch{} end)
    host:mount()
    assert.are.equal(1, host:controlEvent("TsSwitch", "valueChanged"))
    assert.are.same({"first"}, log)
  end)
end)
