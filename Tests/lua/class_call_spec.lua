-- `Class(props)`: the class's scope function runs in C before the host function (ckclass.c);
-- these pin down that it behaves as the SPEC says a constructor does.

describe("Class(props) with a scope function", function()
  it("passes the props to the scope function as a read-only view and uses its result as the identifier", function()
    local seen, written
    local Item = ck.component("CallItem", {scope = function(p)
      seen, written = getmetatable(p), pcall(function() p.id = 8 end)
      return p.id
    end})
    local given = {id = 7}
    local host = ck.host(function() return Item(given) end)
    assert.are.equal("read-only props", seen)
    assert.is_false(written)
    assert.are.same({id = 7}, given)
    assert.are.equal("CallItem#7", host.root.scope.path)
  end)

  it("gives a class called without props an empty table, the one its component keeps", function()
    local count
    local Bare = ck.component("CallBare", {scope = function(p)
      count = 0
      for _ in pairs(p) do count = count + 1 end
      return "only"
    end})
    local host = ck.host(function() return Bare() end)
    assert.are.equal(0, count)
    assert.are.same({}, host.root.props)
    assert.are.equal("CallBare#only", host.root.scope.path)
  end)

  it("ignores arguments after the props", function()
    local Item = ck.component("CallExtra", {scope = function(p) return p.id end})
    local host = ck.host(function() return Item({id = 3}, "extra", 4) end)
    assert.are.equal("CallExtra#3", host.root.scope.path)
  end)

  it("lets the scope function's error reach the build with its own message", function()
    local Bad = ck.component("CallBad", {scope = function() error("no identifier today") end})
    local ok, err = pcall(ck.host, function() return Bad{} end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("no identifier today", 1, true))
  end)

  it("reports props that are not a table before running the scope function", function()
    local ran = false
    local Item = ck.component("CallNumber", {scope = function() ran = true return 1 end})
    assert.error_matches(function() ck.host(function() return Item(5) end) end, "%[badArgument%].*props must be a table or nil")
    assert.is_false(ran)
  end)

  it("follows a scope changed after the class was defined", function()
    local Item = ck.component("CallChanged", {scope = function(p) return p.id end})
    local host = ck.host(function() return Item{id = 1} end)
    assert.are.equal("CallChanged#1", host.root.scope.path)
    Item.scope = function(p) return p.id * 10 end
    host:update()
    assert.are.equal("CallChanged#10", host.root.scope.path)
    Item.scope = true
    host:update()
    assert.are.equal("CallChanged", host.root.scope.path)
  end)

  it("stops running a scope function removed after the class was defined", function()
    local runs = 0
    local Item = ck.component("CallRemoved", {scope = function(p) runs = runs + 1 return p.id end})
    local host = ck.host(function() return Item{id = 1} end)
    assert.are.equal(1, runs)
    Item.scope = nil
    host:update()
    assert.are.equal(1, runs)
    assert.is_nil(host.root.scope)
  end)

  it("runs the scope function of a class with typed action props on the props it keeps (promoted)", function()
    local seen, seenTypes
    local Card = ck.component("CallCard", {scope = true, changed = function() end,
      render = function(self)
        return ck.component("CallSlider", {actions = {onChange = {"number", "Event"}},
          scope = function(p) seen, seenTypes = p, p.onChange.types return "s" end}){onChange = self:action("changed", {"number"})}
      end})
    local host = ck.host(function() return Card{} end)
    local slider = host:find("CallSlider")
    assert.are.same(slider.props, seen)
    assert.are.equal(slider.props.onChange, seen.onChange)
    assert.are.same({"number", "Event"}, seenTypes)
  end)

  it("gives a class handle made again after collection its own scope function", function()
    local host = ck.host(function()
      local A = ck.component("CallAgainA", {scope = function(p) return "a" .. p.n end})
      local B = ck.component("CallAgainB", {scope = function(p) return "b" .. p.n end})
      return ck.Stack{children = {A{n = 1}, B{n = 1}}}
    end)
    -- The classes' only Lua values were the provider's locals: collect their handles.
    collectgarbage()
    collectgarbage()
    local A, B = host:find("CallAgainA").class, host:find("CallAgainB").class
    local again = ck.host(function() return ck.Stack{children = {B{n = 2}, A{n = 2}}} end)
    assert.truthy(again:find("CallAgainA#a2"))
    assert.truthy(again:find("CallAgainB#b2"))
  end)

  it("refuses a __call taken off the metatable and given something that is not a class", function()
    local Item = ck.component("CallForged", {scope = function() return 1 end})
    local call = debug.getmetatable(Item).__call
    assert.error_matches(function() call(io.stdout, {}) end, "%[badArgument%].*must be a component class")
    assert.error_matches(function() call({}, {}) end, "%[badArgument%].*must be a component class")
  end)
end)

describe("Class(props) and the rest of the runtime", function()
  it("reports a scoped class made outside a build before running its scope function", function()
    local ran = false
    local Bad = ck.component("CallOutside", {scope = function(p) ran = true return p.id.x end})
    assert.error_matches(function() return Bad{} end, "^%[outsideBuild%]")
    assert.is_false(ran)
  end)

  it("refuses updateState in a scope function run from a lifecycle callback", function()
    local result
    local Item = ck.component("CallLifecycleItem", {scope = function(p)
      result = {pcall(p.target.updateState, p.target, 5)}
      return 1
    end})
    local Root = ck.component("CallLifecycleRoot", {scope = true, initialState = 0})
    ck.controller("CallLifecycleRootController", {didRemount = function(self) pcall(Item, {target = self.component}) end})
    local host = ck.host(function() return Root{} end)
    host:mount()
    host:update()
    assert.is_false(result[1])
    assert.truthy(tostring(result[2]):find("[updateDuringRender]", 1, true))
  end)

  it("keeps the key the scope function cannot change", function()
    local refused
    local Item = ck.component("CallKey", {scope = function(p)
      refused = not pcall(function() p.key = "changed" end)
      return 1
    end})
    local host = ck.host(function() return Item{key = "given"} end)
    assert.is_true(refused)
    assert.are.equal("given", host.root.key)
    assert.are.equal("given", host.root.scope.key)
  end)

  it("gives a class no scope function left by a class that failed to define", function()
    assert.is_false(pcall(ck.component, "CallBroken", {scope = function() error("not mine") end, actions = 5}))
    collectgarbage()
    for i = 1, 20 do
      local Plain = ck.component("CallPlain" .. i, {render = function() end})
      assert.is_true(pcall(Plain, {}))
      assert.truthy(ck.host(function() return Plain{} end).root)
    end
  end)

  it("refuses, without crashing, a userdata that wears a class's metatable", function()
    local Item = ck.component("CallWorn", {scope = function() return 1 end})
    local mt = debug.getmetatable(Item)
    local host = ck.host(function() return ck.Stack{} end)
    local other = host.root
    local before = debug.getmetatable(other)
    debug.setmetatable(other, mt)
    local ok, err = pcall(other, {})
    debug.setmetatable(other, before)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("[badArgument]", 1, true))
    local file = io.tmpfile()
    debug.setmetatable(file, mt)
    assert.is_false(pcall(file, {}))
  end)

  it("makes components from a coroutine", function()
    local text = coroutine.wrap(function()
      local Item = ck.component("CallCoroutine", {render = function(self, p) return ck.Text{text = p.t} end})
      local h = ck.host(function(m) return Item{t = m} end, {model = "hello"})
      h:mount()
      return h.view.subviews[1].attributes.text
    end)()
    assert.are.equal("hello", text)
  end)
end)

describe("mounting puts views in tree order", function()
  it("after a lifecycle callback rebuilt the host during its mount", function()
    local Label = ck.component("OrderNestedLabel", {view = function(self, p) return {class = "UILabel", attributes = {text = p.t}} end})
    local A = ck.component("OrderNestedA", {scope = true, view = {class = "UIView"}})
    local once = false
    local host
    ck.controller("OrderNestedAController", {didMount = function()
      if not once then once = true host:update(2) end
    end})
    host = ck.host(function(m)
      if m == 1 then return ck.Stack{children = {A{}, Label{t = "B"}}} end
      return ck.Stack{children = {A{}}}
    end, {model = 1})
    host:mount()
    assert.are.equal(1, #host.view.subviews)
    assert.are.equal("UIView", host.view.subviews[1].class)
  end)

  it("on a first mount and after siblings are inserted before others", function()
    local Label = ck.component("OrderLabel", {scope = function(p) return p.t end,
      view = function(self, p) return {class = "UILabel", attributes = {text = p.t}} end})
    local host = ck.host(function(m)
      local c = {}
      for i, t in ipairs(m) do c[i] = Label{t = t} end
      return ck.Stack{children = c}
    end, {model = {"b", "d"}})
    host:mount()
    local function texts()
      local out = {}
      for i, v in ipairs(host.view.subviews) do out[i] = v.attributes.text end
      return table.concat(out, " ")
    end
    assert.are.equal("b d", texts())
    host:update({"a", "b", "c", "d", "e"})
    assert.are.equal("a b c d e", texts())
    host:update({"e", "c"})
    assert.are.equal("e c", texts())
    for _, v in ipairs(host.view.subviews) do assert.are.equal(host.view, v.superview) end
  end)
end)
