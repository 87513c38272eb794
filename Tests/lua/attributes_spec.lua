-- SPEC §7: attributes and events; SPEC §8: tracing.

describe("attributes", function()
  local function tapHost(viewSpec, methods)
    local def = {scope = true, view = viewSpec}
    for k, v in pairs(methods or {}) do def[k] = v end
    local C = ck.component("Tappable", def)
    local host = ck.host(function() return C{} end)
    host:mount()
    return host
  end

  it("hold their action promoted to {\"Event\"}", function()
    local attr = ck.onTap(ck.action("x"))
    assert.are.same({"Event"}, attr.action.types)
    assert.are.same({"touchUpInside"}, ck.onControl(ck.action("x")).events)
    assert.are.same({"valueChanged", "editingDidEnd"}, ck.onControl(ck.action("x"), {"valueChanged", "editingDidEnd"}).events)
  end)

  it("send tap actions then touchUpInside control actions, in attribute order, with an Event", function()
    local log = {}
    local host = tapHost({class = "UIButton", attributes = {
      ck.onControl(ck.action("second")),
      ck.onTap(ck.action("first")),
      ck.onControl(ck.action("third")),
      ck.onControl(ck.action("never"), "valueChanged"),
      title = "plain",
    }}, {
      first = function(self, sender, event) log[#log + 1] = {"first", sender, event.type, event.view} end,
      second = function(self, sender, event) log[#log + 1] = {"second", sender, event.type} end,
      third = function(self) log[#log + 1] = {"third"} end,
      never = function() log[#log + 1] = {"never"} end,
    })
    assert.are.equal(3, host:tap("Tappable"))
    assert.are.same({"first", "second", "third"}, {log[1][1], log[2][1], log[3][1]})
    assert.are.equal(host.root, log[1][2])
    assert.are.equal("tap", log[1][3])
    assert.are.equal(host.root.view, log[1][4])
    assert.are.equal("touchUpInside", log[2][3])
    assert.are.equal("plain", host.root.view.attributes.title)
  end)

  it("fire control actions for a named event", function()
    local got
    local host = tapHost({class = "UISlider", attributes = {ck.onControl(ck.action("changed"), "valueChanged")}},
                         {changed = function(self, sender, event) got = event.type end})
    assert.are.equal(1, host:controlEvent("Tappable", "valueChanged"))
    assert.are.equal("valueChanged", got)
    assert.are.equal(0, host:controlEvent("Tappable", "touchDown"))
  end)

  it("allow onControl only on control classes", function()
    local C = ck.component("NotControl", {view = {class = "UIView", attributes = {ck.onControl(ck.action("x"))}}})
    assert.error_matches(function() ck.host(function() return C{} end) end, "%[notAControl%]")
    ck.registerControlClass("MyControl")
    local D = ck.component("MyControlUser", {view = {class = "MyControl", attributes = {ck.onControl(ck.action("x"))}}})
    assert.is_not_nil(ck.host(function() return D{} end))
  end)

  it("make a nil action a no-op", function()
    local host = tapHost({class = "UIButton", attributes = {ck.onTap(nil), ck.onControl(nil)}})
    assert.are.equal(0, host:tap("Tappable"))
  end)

  it("tap the first view at or below a component without a view of its own", function()
    local got
    local Wrapper = ck.component("TapWrapper", {scope = true, pressed = function() got = true end,
      render = function(self) return ck.Button{action = self:action("pressed")} end})
    local host = ck.host(function() return Wrapper{} end)
    host:mount()
    assert.are.equal(1, host:tap("TapWrapper"))
    assert.is_true(got)
  end)

  it("send nothing for a view whose component is not mounted", function()
    local got = 0
    local C = ck.component("Unmounting", {scope = true, hit = function() got = got + 1 end,
      view = function(self) return {class = "UIView", attributes = {ck.onTap(self:action("hit"))}} end})
    local host = ck.host(function() return C{} end)
    assert.are.equal(0, host:tap("Unmounting"))
    host:mount()
    assert.are.equal(1, host:tap("Unmounting"))
    host:unmount()
    assert.are.equal(0, host:tap("Unmounting"))
    assert.are.equal(1, got)
  end)

  it("use the view's component as sender with startAtSender for selector actions", function()
    local got
    local C = ck.component("SelfHandled", {view = {class = "UIButton", attributes = {ck.onControl(ck.action("didTapButton"))}},
      didTapButton = function(self) got = self end})
    local host = ck.host(function() return C{} end)
    host:mount()
    host:tap("SelfHandled")
    assert.are.equal(host.root, got)
  end)

  -- A view function's attributes are copied in C when no value is a userdata and there are at
  -- most 64 of them; otherwise Swift copies them. Every case shows the same attributes.
  it("from a view function are a copy of the plain ones, whatever their values and number", function()
    local taps = 0
    local many = {}
    for i = 1, 70 do many["a" .. i] = i end
    local cases = {
      plain = {title = "t", n = 2, on = true, list = {1}},
      many = many,
      handles = {title = "t", other = ck.action("kept")},
      action = {title = "t", ck.onTap(ck.action("hit"))},
    }
    for name, attributes in pairs(cases) do
      local C = ck.component("Attrs" .. name, {scope = true, hit = function() taps = taps + 1 end,
        view = function() return {class = "UIButton", attributes = attributes} end})
      local host = ck.host(function() return C{} end)
      host:mount()
      local shown = host.root.view.attributes
      assert.are_not.equal(attributes, shown, name)
      local expected = {}
      for k, v in pairs(attributes) do if type(k) ~= "number" then expected[k] = v end end
      assert.are.same(expected, shown, name)
      assert.are.equal(name == "action" and 1 or 0, host:tap("Attrs" .. name), name)
    end
    assert.are.equal(1, taps)
  end)

  -- A view function's plain attributes stay in the spec's own arena slot (ArenaViewSpec); a
  -- table is made of them only when read.
  it("from a view function are each view's own snapshot, one table however often read, kept with the view", function()
    local shared = {}
    local Row = ck.component("SnapshotRow", {view = function(self, p)
      shared.text = p.label
      return {class = "UILabel", attributes = shared}
    end})
    local List = ck.component("SnapshotList", {render = function()
      return ck.Stack{children = {Row{label = "a"}, Row{label = "b"}}}
    end})
    local host = ck.host(function() return List{} end)
    host:mount()
    local views = host.view.subviews
    assert.are.same({"a", "b"}, {views[1].attributes.text, views[2].attributes.text})
    assert.are.equal(views[1].attributes, views[1].attributes)
    assert.are_not.equal(shared, views[2].attributes)
    assert.is_truthy(host:dump():find('text="b"', 1, true))
    local kept = views[2]
    host:destroy()
    host = nil
    collectgarbage()
    collectgarbage()
    assert.are.equal("b", kept.attributes.text)
  end)

  it("from a view function may be the props: the view shows a copy of them", function()
    local C = ck.component("PropsAsAttributes", {view = function(self, p) return {class = "UILabel", attributes = p} end})
    local host = ck.host(function() return C{text = "hi", n = 1} end)
    host:mount()
    assert.are.same({text = "hi", n = 1}, host.root.view.attributes)
  end)
end)

describe("ck.trace", function()
  it("lists each send with the responders visited and who handled it", function()
    local C = ck.component("Traced", {scope = true, render = function() return ck.Button{title = "t"} end, save = function() end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local entries = ck.trace(function()
      ck.action("save"):send(host:find("Button"))
      ck.config.unhandledAction = "ignore"
      ck.action("missing"):send(host:find("Button"))
      ck.config.unhandledAction = "error"
    end)
    assert.are.equal(2, #entries)
    assert.are.equal("save", entries[1].selector)
    assert.are.equal(host:find("Button"), entries[1].sender)
    assert.is_true(entries[1].handled)
    assert.are.equal(host.root, entries[1].handler)
    assert.are.equal(host.root, entries[1].responders[1])
    assert.is_false(entries[2].handled)
    assert.are.equal("string", type(tostring(entries[1])))
    assert.is_nil(tostring(entries[1]):find("\n"))
    assert.is_not_nil(tostring(entries[2]):find("HostingView", 1, true))
  end)

  it("counts a block action that ran as handled, with no responder", function()
    local ran = false
    local block = ck.action(function() ran = true end)
    local C = ck.component("TracedBlock", {render = function() return ck.Button{title = "b", action = block} end})
    local host = ck.host(function() return C{} end)
    host:mount()
    local entries = ck.trace(function() host:tap("Button") end)
    assert.is_true(ran)
    assert.are.equal(1, #entries)
    assert.is_true(entries[1].handled)
    assert.is_nil(entries[1].handler)
    assert.are.equal("(block) from Button: block (handled)", tostring(entries[1]))
  end)

  it("reports sends to ck.config.onTrace", function()
    local lines = {}
    ck.config.onTrace = function(entry) lines[#lines + 1] = tostring(entry) end
    ck.action(function() end):send(nil)
    ck.config.onTrace = nil
    ck.action(function() end):send(nil)
    assert.are.equal(1, #lines)
  end)
end)

describe("tostring of runtime objects", function()
  it("is short and readable", function()
    local C = ck.component("Printable", {scope = true, view = {class = "UIView"}})
    ck.controller("PrintableController", {})
    local host = ck.host(function() return C{} end)
    host:mount()
    for _, v in ipairs({host, host.root, ck.controllerOf(host.root), host.root.view, ck.action("x"), host.root.class}) do
      local s = tostring(v)
      assert.is_true(#s < 80, s)
      assert.is_nil(s:find("userdata", 1, true), s)
    end
  end)
end)
