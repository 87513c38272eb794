-- A kept (pure) subtree is kept only when a fresh build would make the same, and keeping it
-- leaves it as a fresh build would (BuildContext.mayKeep; attack breaks 01, 02, 06, 09, 10, 11, 12).
describe("keeping a pure subtree", function()
  local function rows(Row, extra)
    return ck.component(Row.name .. "List", {scope = true, pick = function() end, render = function(self, m)
      local ch = {}
      for _, k in ipairs(m.order) do ch[#ch + 1] = Row{key = k, label = m.labels[k], extra = extra} end
      return ck.Stack{children = ch}
    end})
  end
  local model = {order = {1, 2, 3}, labels = {"a", "b", "c"}}
  local failing = {order = {1, 2, 3}, labels = {"a", "B", "c"}}

  it("links kept rows back to the restored generation after a failed build (01)", function()
    local boom = false
    ck.controller("RollRowController", {})
    local Row = ck.component("RollRow", {scope = true, pure = true, initialState = {n = 0},
      view = function(self, p, s) return {class = "UILabel", attributes = {n = s.n}} end,
      render = function(self, p) if boom and p.key == 2 then error("boom") end end})
    local h = ck.host(rows(Row), {model = model})
    h:mount()
    boom = true
    assert.has_error(function() h:update(failing) end)
    boom = false
    h:find("RollRow#3"):updateState({n = 1}, "sync")
    local found = h:findAll("RollRow")
    assert.are.equal("RollRowList", h.root.name)
    assert.are.equal(3, #found)
    assert.is_true(found[3].isMounted)
    assert.are.equal(1, found[3].state.n)
    assert.are.equal(1, h.view.subviews[3].attributes.n)
  end)

  it("keeps the responder chain of kept rows after a failed build (11)", function()
    local boom, picked = false, 0
    local Row = ck.component("ChainRow", {scope = true, pure = true, view = {class = "UIView"},
      render = function(self, p)
        if boom and p.key == 2 then error("boom") end
        return ck.Button{title = "b", action = ck.action("pick")}
      end})
    local List = rows(Row)
    function List:pick() picked = picked + 1 end
    local h = ck.host(List, {model = model})
    h:mount()
    boom = true
    assert.has_error(function() h:update(failing) end)
    boom = false
    assert.are.equal(h:find("Stack"), ck.nextResponder(h:find("ChainRow#3")))
    h:tap("ChainRow#3 Button")
    assert.are.equal(1, picked)
  end)

  it("renders an update pending below a kept row (12)", function()
    local Sub = ck.component("BelowSub", {scope = true, initialState = {n = 0},
      view = function(self, p, s) return {class = "UILabel", attributes = {n = s.n}} end})
    local Row = ck.component("BelowRow", {scope = true, pure = true, view = {class = "UIView"},
      render = function() return Sub{} end})
    local h = ck.host(rows(Row), {model = model})
    h:mount()
    h:find("BelowRow#1 BelowSub"):updateState({n = 1})
    h:update(model)
    assert.are.equal(1, h:find("BelowRow#1 BelowSub").state.n)
    assert.are.equal(1, h.view.subviews[1].subviews[1].attributes.n)
  end)

  it("gives kept rows a controller class defined later (09)", function()
    local Row = ck.component("LateRow", {scope = true, pure = true, view = {class = "UILabel"}})
    local h = ck.host(rows(Row), {model = model})
    h:mount()
    local inits = 0
    ck.controller("LateRowController", {init = function() inits = inits + 1 end})
    h:update(model)
    assert.are.equal(3, inits)
    for _, c in ipairs(h:findAll("LateRow")) do assert.is_not_nil(ck.controllerOf(c)) end
  end)

  it("builds a redefined class's instances at a reload (02)", function()
    local function define(ver)
      local Row = ck.component("ReloadRow", {scope = true, pure = true,
        view = function(self, p) return {class = "UILabel", attributes = {text = ver .. p.label}} end})
      return rows(Row), Row
    end
    local List1 = define("v1:")
    local h = ck.host(function(m) return List1(m) end, {model = model})
    h:mount()
    local List2, Row2 = define("v2:")
    h:reload(function(m) return List2(m) end)
    assert.are.equal("v2:a", h.view.subviews[1].attributes.text)
    assert.is_true(rawequal(Row2, h:find("ReloadRow").class))
  end)

  it("picks up a special key set on the class (Class.view = f)", function()
    local Row = ck.component("ViewKeyRow", {scope = true, pure = true,
      view = function(self, p) return {class = "UILabel", attributes = {text = "v1"}} end})
    local h = ck.host(rows(Row), {model = model})
    h:mount()
    Row.view = function(self, p) return {class = "UILabel", attributes = {text = "v2"}} end
    h:update(model)
    assert.are.equal("v2", h.view.subviews[1].attributes.text)
  end)

  it("compares action props with the actions' == (10)", function()
    local renders = 0
    local Row = ck.component("ActionRow", {scope = true, pure = true, actions = {onPick = {"int"}},
      render = function() renders = renders + 1 end, view = {class = "UILabel"}})
    local f = function() end
    local List = ck.component("ActionList", {scope = true, pick = function() end, other = function() end,
      render = function(self, m)
        return ck.Stack{children = {Row{key = 1, onPick = self:action(m.sel or "pick", {"int"})},
          Row{key = 2, onPick = ck.action("pick", {"int"})}, Row{key = 3, onPick = ck.action(f, {"int"})}}}
      end})
    local h = ck.host(List)
    h:mount()
    h:update({})
    h:update({})
    assert.are.equal(3, renders)
    h:update({sel = "other"})
    assert.are.equal(4, renders, "an action that is not == changes the props")
  end)

  it("renders an instance from an earlier build with its scope's current state (06)", function()
    local Row = ck.component("CachedRow", {scope = true, initialState = function(p) return {n = p.key} end,
      view = function(self, p, s) return {class = "UILabel", attributes = {n = s.n}} end})
    local cache = {}
    local List = ck.component("CachedList", {render = function(self, m)
      local ch = {}
      for _, k in ipairs(m) do cache[k] = cache[k] or Row{key = k}; ch[#ch + 1] = cache[k] end
      return ck.Stack{children = ch}
    end})
    local h = ck.host(List, {model = {1, 2, 3}})
    h:mount()
    h:find("CachedRow#1"):updateState({n = 100}, "sync")
    h:update({1, 2, 3})
    assert.are.equal(100, h:find("CachedRow#1").state.n)
    assert.are.equal(100, h.view.subviews[1].attributes.n)
    -- An instance that stands for a construction stands in one place only.
    assert.has_error(function() h:update({1, 1}) end, nil)
    assert.are.equal(3, #h:findAll("CachedRow"))
  end)

  it("renders a container's child from its props with the child's current state", function()
    local Counter = ck.component("HeldCounter", {scope = true, initialState = 0,
      view = function(self, p, s) return {class = "UILabel", attributes = {n = s}} end})
    local Card = ck.component("HeldCard", {scope = true, initialState = 0,
      render = function(self, p) return p.child end})
    local h = ck.host(function() return Card{child = Counter{}} end)
    h:mount()
    h:find("HeldCounter"):updateState(7, "sync")
    h:find("HeldCard"):updateState(1, "sync")
    assert.are.equal(7, h:find("HeldCounter").state)
    assert.are.equal(7, h.view.subviews[1].attributes.n)
  end)

  it("replaces a held child with an update pending by a fresh instance, unmounting the old one", function()
    local Counter = ck.component("BusyCounter", {scope = true, initialState = 0,
      view = function(self, p, s) return {class = "UILabel", attributes = {n = s}} end})
    local Card = ck.component("BusyCard", {scope = true, initialState = 0,
      render = function(self, p) return p.child end})
    local h = ck.host(function() return Card{child = Counter{}} end)
    h:mount()
    local old = h:find("BusyCounter")
    old:updateState(3)
    h:find("BusyCard"):updateState(1)
    ck.flush()
    local now = h:find("BusyCounter")
    assert.are.equal(3, now.state)
    assert.are.equal(3, h.view.subviews[1].attributes.n)
    assert.is_true(now.isMounted)
    assert.is_false(old.isMounted)
  end)
end)

-- atk-stale 07: the pure rule does not depend on where the instance was built.
describe("a pure component built outside any build", function()
  it("is kept when the next one has equal props, as one built in a render is", function()
    local renders = 0
    local Row = ck.component("OutsideRow", {pure = true,
      render = function(self, p) renders = renders + 1; return ck.Text{text = p.label} end})
    local List = ck.component("OutsideRowList", {render = function(self, p)
      return ck.Stack{children = {p.item}} end})
    local h = ck.host(function(m) return List{item = m} end, {model = Row{key = "a", label = "A"}})
    h:mount()
    local first = h:find("OutsideRow")
    assert.are.equal(1, first.generation)
    renders = 0
    h:update(Row{key = "a", label = "A"})
    assert.are.equal(0, renders)
    assert.are.equal(first, h:find("OutsideRow"))
    h:update(Row{key = "a", label = "B"})
    assert.are.equal(1, renders)
  end)

  it("is kept by the same rule when another host's build made it", function()
    local renders, made = 0, nil
    local Row = ck.component("ElsewhereRow", {pure = true,
      render = function(self, p) renders = renders + 1; return ck.Text{text = p.label} end})
    local Maker = ck.component("ElsewhereMaker", {render = function() made = Row{label = "B"} end})
    local h = ck.host(function(m) return m end, {model = Row{label = "A"}})
    for _ = 1, 3 do h:update(Row{label = "A"}) end
    ck.component("ElsewhereOther", {render = function() end})   -- later generations only are kept
    h:update(Row{label = "A"})
    ck.host(function() return Maker{} end)
    h:update(made)
    renders = 0
    h:update(Row{label = "B"})
    assert.are.equal(0, renders)
  end)

  it("is kept by the same rule when an earlier build of its host made it and did not place it", function()
    local renders, made = 0, nil
    local Row = ck.component("EarlierRow", {pure = true,
      render = function(self, p) renders = renders + 1; return ck.Text{text = p.label} end})
    local Stash = ck.component("EarlierStash", {render = function() made = Row{label = "B"} end})
    local h = ck.host(function(m) return m end, {model = Stash{}})
    ck.component("EarlierOther", {render = function() end})   -- later generations only are kept
    h:update(Row{label = "A"})
    h:update(made)
    renders = 0
    h:update(Row{label = "B"})
    assert.are.equal(0, renders)
  end)

  it("is built again after its class was redefined", function()
    local renders = 0
    local def = {pure = true, render = function(self, p) renders = renders + 1; return ck.Text{text = p.label} end}
    local Row = ck.component("OutsideRedefined", def)
    local h = ck.host(function(m) return m end, {model = Row{label = "A"}})
    h:mount()
    ck.component("OutsideRedefined", def)
    renders = 0
    h:update(Row{label = "A"})
    assert.are.equal(1, renders)
  end)
end)
