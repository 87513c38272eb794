-- tostring of every runtime object is one line and short (SPEC §8), whatever its names hold.

local function oneLine(s) return not s:find("[\n\r]") end

describe("tostring of runtime objects", function()
  it("escapes a line break in a name", function()
    -- A class name cannot hold one (ck.component refuses it: a printed name is a query); a
    -- selector, a view class and a controller's name can.
    local C = ck.component("MultiLine", {scope = true, render = function() return ck.Text{} end})
    C["go\nnow"] = function() end
    ck.controller("MultiLineController", {})
    local host = ck.host(function() return C{} end)
    host:mount()
    local trace = ck.trace(function() ck.action("go\nnow"):send(host:find("Text")) end)
    assert.is_true(oneLine(tostring(host.root)) and oneLine(tostring(host)) and oneLine(tostring(C)))
    for _, s in ipairs{tostring(trace[1]), tostring(ck.action("go\nnow")), tostring(ck.onTap(ck.action("a\nb")))} do
      assert.is_true(oneLine(s), s)
      assert.matches("\\n", s, 1, true)
    end
    local V = ck.component("ViewLine", {view = {class = "UI\nView"}})
    local h2 = ck.host(function() return V{} end)
    h2:mount()
    assert.is_true(oneLine(tostring(h2.root.view)))
  end)

  it("cuts a long name as a component's does", function()
    local long = ("s"):rep(10000)
    assert.is_true(#tostring(ck.action(long)) < 300)
    assert.is_true(#tostring(ck.action(long, {"int"})) < 320)
    ck.controller(("K"):rep(5000) .. "Controller", {[long] = function() end})
    local K = ck.component(("K"):rep(5000), {scope = true, view = {class = ("V"):rep(5000)}})
    local host = ck.host(function() return K{} end)
    host:mount()
    assert.is_true(#tostring(ck.controllerOf(host.root)) < 500)
    assert.is_true(#tostring(host.root.view) < 500)
    assert.is_true(#tostring(K) < 300)
    local trace = ck.trace(function() ck.action(long):send(host.root) end)
    assert.is_true(#tostring(trace[1]) < 700)
  end)
end)
