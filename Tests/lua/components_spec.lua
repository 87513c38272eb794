-- SPEC §1–2: the module, component classes and instances, built-ins.

describe("the ck module", function()
  it("is required and global at once", function()
    assert.are.equal(ck, require("ck"))
  end)

  it("raises errors that start with a bracketed id", function()
    local ok, err = pcall(ck.component)
    assert.is_false(ok)
    assert.is_not_nil(err:match("^%[badArgument%] "))
  end)

  it("sends warnings to ck.config.onWarning", function()
    local seen
    ck.config.onWarning = function(m) seen = m end
    local Item = ck.component("WarnItem", {scope = true})
    local host = ck.host(function() return ck.Stack{children = {Item{}, Item{}}} end)
    ck.config.onWarning = nil
    assert.is_not_nil(seen)
    assert.is_not_nil(seen:match("^%[scopeCollision%]"))
  end)
end)

describe("component classes", function()
  it("are defined by name and callable", function()
    local Card = ck.component("Card", {render = function() return nil end})
    local c = Card{title = "x"}
    assert.are.equal("Card", c.name)
    assert.are.equal(Card, c.class)
    assert.are.equal("x", c.props.title)
  end)

  it("accept nil props", function()
    local Plain = ck.component("Plain", {})
    assert.are.same({}, Plain().props)
  end)

  it("replace the class when a name is redefined", function()
    local A1 = ck.component("Redefined", {render = function() return ck.Text{text = "one"} end})
    local A2 = ck.component("Redefined", {render = function() return ck.Text{text = "two"} end})
    assert.are_not.equal(A1, A2)
    local host = ck.host(function() return A2{} end)
    assert.are.equal("two", host:find("Text").props.text)
  end)

  it("take methods after definition", function()
    local Widget = ck.component("Widget", {})
    function Widget:greet(name) return "hi " .. name end
    local w = Widget{}
    assert.are.equal("hi bob", w:greet("bob"))
    assert.are.equal(Widget.greet, w.greet)
  end)

  it("expose key and scope", function()
    local Keyed = ck.component("Keyed", {scope = true})
    local host = ck.host(function() return Keyed{key = "k1"} end)
    assert.are.equal("k1", host.root.key)
    assert.is_not_nil(host.root.scope)
    assert.is_nil(ck.Text{text = "t"}.scope)
  end)
end)

describe("what a render returns", function()
  -- `cond and X{}` is false when cond is: a render or provider returning it renders nothing,
  -- as a false entry of a children list is skipped.
  it("false renders nothing, as nil does; true is still [badReturn]", function()
    local Panel = ck.component("FalsePanel", {render = function() return ck.Text{text = "details"} end})
    local Toggle = ck.component("FalseToggle", {scope = true, initialState = true,
      render = function(self, props, open) return open and Panel{} end})
    local host = ck.host(Toggle); host:mount()
    assert.is_not_nil(host:find("FalsePanel"))
    host.root:updateState(false, "sync")
    assert.is_nil(host:find("FalsePanel"))
    assert.are.equal(2, host.generation)
    assert.is_nil(ck.host(function() return false end).root)
    local Bad = ck.component("TrueRender", {render = function() return true end})
    assert.error_matches(function() ck.host(Bad) end, "%[badReturn%].*returned a boolean")
  end)
end)

describe("component instances", function()
  it("are immutable", function()
    local c = ck.Text{text = "a"}
    assert.error_matches(function() c.props = {} end, "^%[immutableComponent%]")
    assert.error_matches(function() c.anything = 1 end, "^%[immutableComponent%]")
  end)

  it("see their scope's state as it was when built", function()
    local Counter = ck.component("StateSnapshot", {scope = true, initialState = 1})
    local host = ck.host(function() return Counter{} end)
    local first = host.root
    first:updateState(2, "sync")
    assert.are.equal(1, first.state)
    assert.are.equal(2, host.root.state)
  end)

  it("print short and readable", function()
    local Named = ck.component("Named", {scope = function(p) return p.id end})
    local host = ck.host(function() return Named{id = 4} end)
    assert.is_not_nil(tostring(host.root):find("Named#4", 1, true))
  end)

  it("have no reference to their controller except through ck.controllerOf", function()
    ck.controller("LonelyController", {})
    local Lonely = ck.component("Lonely", {scope = true})
    local host = ck.host(function() return Lonely{} end)
    assert.is_nil(host.root.controller)
    assert.are.equal("LonelyController", ck.controllerOf(host.root).name)
  end)
end)

describe("built-in components", function()
  it("Stack holds children in array order", function()
    local host = ck.host(function() return ck.Stack{children = {ck.Text{text = "a"}, ck.Text{text = "b"}}} end)
    host:mount()
    local texts = host:findAll("Text")
    assert.are.equal("a", texts[1].props.text)
    assert.are.equal("b", texts[2].props.text)
    assert.are.equal(2, #host.view.subviews)
    assert.are.equal("a", host.view.subviews[1].attributes.text)
  end)

  it("View mounts a view with its attributes around its child", function()
    local host = ck.host(function()
      return ck.View{class = "UIScrollView", attributes = {alpha = 0.5}, child = ck.Text{text = "in"}}
    end)
    host:mount()
    local v = host:find("View").view
    assert.are.equal("UIScrollView", v.class)
    assert.are.equal(0.5, v.attributes.alpha)
    assert.are.equal("UILabel", v.subviews[1].class)
    assert.are.equal(v, v.subviews[1].superview)
  end)

  it("Text is a UILabel and Button a UIButton", function()
    local host = ck.host(function() return ck.Stack{children = {ck.Text{text = "t"}, ck.Button{title = "b"}}} end)
    host:mount()
    assert.are.equal("UILabel", host:find("Text").view.class)
    assert.are.equal("UIButton", host:find("Button").view.class)
    assert.are.equal("b", host:find("Button").view.attributes.title)
  end)

  it("Button types its action prop {\"Event\"}", function()
    local a = ck.action("tapped")
    local b = ck.Button{action = a}
    assert.are.same({"Event"}, b.props.action.types)
    assert.error_matches(function() ck.Button{action = ck.action("x", {"Event", "int"})} end, "^%[implicitDemotion%]")
  end)
end)
